import { mailboxAddressOf } from "./mailbox-address";

/**
 * Headers that name whom a message was first sent to before a mail host forwarded it to us: Gmail and
 * Workspace keep `To` and add `Delivered-To` and `X-Forwarded-For`; Postfix and Exchange add
 * `X-Original-To`; a resent message carries `Resent-To`.
 */
const ORIGINAL_RECIPIENT_HEADERS = [
  "delivered-to",
  "x-forwarded-to",
  "x-forwarded-for",
  "x-original-to",
  "to",
  "resent-to",
];

const ADDRESS = /[^\s<>,;:"'()[\]]+@[^\s<>,;:"'()[\]]+/g;

/** Addresses in one parsed header value: mailparser's address object, a raw string, or a list of them. */
function addressesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(addressesIn);
  if (typeof value === "string") return value.match(ADDRESS) ?? [];
  if (value && typeof value === "object") {
    const parsed = value as { value?: unknown; address?: unknown; group?: unknown };
    if (typeof parsed.address === "string") return [...addressesIn(parsed.address), ...addressesIn(parsed.group)];
    if (parsed.value !== undefined) return addressesIn(parsed.value);
    return addressesIn(parsed.group);
  }
  return [];
}

/**
 * The addresses a forwarded message was first sent to, read from its headers (mailparser's header map):
 * lower case, +tags as sent, without our own mail domain's addresses (the forwarding inbox itself).
 */
export function originalRecipientsOf(headers: ReadonlyMap<string, unknown>, domain: string): string[] {
  const found = new Set<string>();
  for (const name of ORIGINAL_RECIPIENT_HEADERS) {
    for (const address of addressesIn(headers.get(name))) {
      const lower = address.toLowerCase().replace(/\.$/, "");
      if (lower.includes("@") && !mailboxAddressOf(lower, domain)) found.add(lower);
    }
  }
  return [...found];
}
