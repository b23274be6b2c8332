import type { InboundMessageResource } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import { extractCode, extractLink } from "@authsvc/messages";
import { ApiError } from "../http/api-error";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function count(value: unknown, field: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= max)) throw ApiError.invalid([{ field, message: `must be a whole number from 0 to ${max}` }]);
  return n;
}

/**
 * One page of a mailbox's messages, newest first: metadata with the code and link the login flows would
 * read in it; the decrypted text and HTML only with `include=body` (they may hold secrets of other sites).
 */
export async function mailboxMessages(db: Database, orgId: string, mailboxId: string, query: Record<string, unknown>) {
  const limit = Math.max(1, count(query.limit, "/limit", DEFAULT_LIMIT, MAX_LIMIT));
  const offset = count(query.offset, "/offset", 0, 100_000);
  if (query.include !== undefined && query.include !== "body")
    throw ApiError.invalid([{ field: "/include", message: 'must be "body"' }]);
  const withBody = query.include === "body";
  const rows = await db.inboundMessages.page(orgId, mailboxId, offset, limit + 1);
  const messages = rows.slice(0, limit).map((m): InboundMessageResource => ({
    id: m.id,
    from: m.from,
    subject: m.subject,
    recipient: m.recipient,
    originalRecipients: m.originalRecipients,
    receivedAt: m.receivedAt.toISOString(),
    authenticated: m.authenticated ?? null,
    code: extractCode(m),
    link: extractLink(m),
    ...(withBody ? { text: m.text, html: m.html } : {}),
  }));
  const more = rows.length > limit ? `offset=${offset + limit}&limit=${limit}${withBody ? "&include=body" : ""}` : null;
  return { messages, next: more && `/v1/mailboxes/${mailboxId}/messages?${more}` };
}
