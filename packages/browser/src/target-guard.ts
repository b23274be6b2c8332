import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

export type TargetVerdict =
  | { allowed: true }
  | { allowed: false; code: "target_not_allowed" | "target_unreachable"; reason: string };

// Cloud metadata endpoints outside the link-local range.
const METADATA_ADDRESSES = new Set(["100.100.100.200", "fd00:ec2::254"]);

/**
 * Decides whether the browser may talk to a URL: http(s) only, and every address its host resolves to must be
 * public unicast, unless its range is explicitly allowed (local development and tests allow `loopback`).
 */
export class TargetGuard {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowRanges: readonly string[] = []) {
    this.allowed = new Set(allowRanges);
  }

  addressAllowed(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    let ip = ipaddr.parse(address);
    if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    if (METADATA_ADDRESSES.has(ip.toString())) return false;
    const range = ip.range();
    return range === "unicast" || this.allowed.has(range);
  }

  async check(rawUrl: string): Promise<TargetVerdict> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { allowed: false, code: "target_not_allowed", reason: "not a valid URL" };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { allowed: false, code: "target_not_allowed", reason: `scheme ${url.protocol} is not allowed` };
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    let addresses: string[];
    try {
      addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return { allowed: false, code: "target_unreachable", reason: `cannot resolve ${host}` };
    }
    const refused = addresses.find((a) => !this.addressAllowed(a));
    if (refused !== undefined) {
      return { allowed: false, code: "target_not_allowed", reason: `${host} resolves to a non-public address` };
    }
    return { allowed: true };
  }
}
