import { lookup as dnsLookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { HostMap } from "./host-map";

export type TargetVerdict =
  { allowed: true } | { allowed: false; code: "target_not_allowed" | "target_unreachable"; reason: string };

/** A host resolved and checked: the addresses to connect to, never to be looked up again. */
export type ResolvedTarget = { allowed: true; addresses: string[] } | Exclude<TargetVerdict, { allowed: true }>;

export type Lookup = (host: string) => Promise<string[]>;

// The system resolver (so /etc/hosts and cluster DNS apply), bounded: a resolver that never answers must not
// hold a login, or one of libuv's few threads, for long.
const LOOKUP_TIMEOUT_MS = 5000;
const systemLookup: Lookup = (host) =>
  // RFC 6761: localhost and every name under it are loopback, whatever the resolver says (glibc knows
  // only "localhost" itself). They stay refused unless loopback is allowed.
  /^(.+\.)?localhost\.?$/i.test(host)
    ? Promise.resolve(["127.0.0.1", "::1"])
    : new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`DNS lookup of ${host} timed out`)), LOOKUP_TIMEOUT_MS);
        dnsLookup(host, { all: true, verbatim: true }).then(
          (answers) => {
            clearTimeout(timer);
            resolve(answers.map((a) => a.address));
          },
          (err: unknown) => {
            clearTimeout(timer);
            reject(err);
          },
        );
      });

// Cloud metadata endpoints outside the link-local range.
const METADATA_ADDRESSES = new Set(["100.100.100.200", "fd00:ec2::254"]);
// Public IPv6 is global unicast; anything else that ipaddr.js calls "unicast" (such as the deprecated
// IPv4-compatible ::a.b.c.d) is not a place a login page lives.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Decides whether the browser may talk to a host: every address it resolves to must be public unicast,
 * unless its range is explicitly allowed (local development and tests allow `loopback`). With a host map
 * (tests and development only), a mapped name resolves to its loopback address instead of DNS; the
 * egress proxy reads the same map from here to pick the port, so the two can never disagree.
 */
export class TargetGuard {
  private readonly allowed: ReadonlySet<string>;

  constructor(
    allowRanges: readonly string[] = [],
    private readonly lookup: Lookup = systemLookup,
    readonly hostMap: HostMap = new HostMap(),
  ) {
    this.allowed = new Set(allowRanges);
  }

  addressAllowed(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    let ip = ipaddr.parse(address);
    if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    if (METADATA_ADDRESSES.has(ip.toString())) return false;
    const range = ip.range();
    if (this.allowed.has(range)) return true;
    if (range !== "unicast") return false;
    return ip.kind() === "ipv4" || (ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
  }

  /** Resolves a host name (or literal address) once and checks every address it has. */
  async resolve(host: string): Promise<ResolvedTarget> {
    const bare = host.replace(/^\[|\]$/g, "");
    let addresses: string[];
    try {
      const mapped = this.hostMap.get(bare);
      // A mapped address is checked below like any other: without `loopback` allowed it is refused.
      addresses = ipaddr.isValid(bare) ? [bare] : mapped ? [mapped.address] : await this.lookup(bare);
    } catch {
      return { allowed: false, code: "target_unreachable", reason: `cannot resolve ${bare}` };
    }
    if (addresses.length === 0) return { allowed: false, code: "target_unreachable", reason: `cannot resolve ${bare}` };
    if (addresses.some((a) => !this.addressAllowed(a))) {
      return { allowed: false, code: "target_not_allowed", reason: `${bare} resolves to a non-public address` };
    }
    return { allowed: true, addresses };
  }

  async check(rawUrl: string): Promise<TargetVerdict> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { allowed: false, code: "target_not_allowed", reason: "not a valid URL" };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "ws:" && url.protocol !== "wss:") {
      return { allowed: false, code: "target_not_allowed", reason: `scheme ${url.protocol} is not allowed` };
    }
    const resolved = await this.resolve(url.hostname);
    return resolved.allowed ? { allowed: true } : resolved;
  }
}
