import ipaddr from "ipaddr.js";

/** Where a mapped host name leads: a loopback address, and the port its web traffic (ports 80 and 443) goes to. */
export interface HostMapTarget {
  address: string;
  port: number;
}

export class HostMapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HostMapError";
  }
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function normalizeName(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, "");
}

function isLoopback(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === "loopback";
}

/**
 * Test-only name resolution: fixture pages run on loopback ports but must be reached under the real host
 * names (accounts.google.com, github.com), because the service picks its provider modules by host. A
 * mapped name resolves to its loopback address instead of DNS (the guard still checks that address), and
 * its default ports, 80 and 443, lead to the fixture's one port (the fixtures speak HTTP and TLS on it:
 * Chromium's HSTS preload list sends these names to https whatever the link says); every other port of
 * the name goes to the same address unchanged, as an /etc/hosts entry would. Only loopback targets exist, so a map can never point the browser
 * at another machine; production refuses the map altogether (packages/config).
 */
export class HostMap {
  private readonly entries = new Map<string, HostMapTarget>();

  constructor(entries: Record<string, HostMapTarget> | Iterable<readonly [string, HostMapTarget]> = []) {
    const list =
      Symbol.iterator in entries
        ? [...(entries as Iterable<readonly [string, HostMapTarget]>)]
        : Object.entries(entries);
    for (const [rawName, target] of list) {
      const name = normalizeName(rawName);
      if (!HOST_NAME.test(name) || ipaddr.isValid(name)) throw new HostMapError(`"${rawName}" is not a host name`);
      const address = target.address.replace(/^\[|\]$/g, "");
      if (!isLoopback(address)) throw new HostMapError(`${name} must map to a loopback address, not ${target.address}`);
      if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535)
        throw new HostMapError(`${name}: port ${target.port} is not a port`);
      if (this.entries.has(name)) throw new HostMapError(`${name} is mapped twice`);
      this.entries.set(name, { address, port: target.port });
    }
  }

  /** Reads `name=address:port` entries, comma separated (the EGRESS_HOST_MAP format); IPv6 as `[::1]:port`. */
  static parse(text: string): HostMap {
    const entries: Array<[string, HostMapTarget]> = [];
    for (const item of text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = /^([^=\s]+)=(?:\[([^\]]+)\]|([^:\s]+)):(\d+)$/.exec(item);
      if (!m) throw new HostMapError(`"${item}" is not name=address:port`);
      entries.push([m[1]!, { address: m[2] ?? m[3]!, port: Number(m[4]) }]);
    }
    return new HostMap(entries);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The target of a host name (any case, trailing dot or not), or undefined when it is not mapped. */
  get(host: string): HostMapTarget | undefined {
    return this.entries.get(normalizeName(host.replace(/^\[|\]$/g, "")));
  }

  /** The port to connect to for `host:port`: a mapped name's ports 80 and 443 are its fixture's port. */
  portFor(host: string, port: number): number {
    const target = this.get(host);
    return target && (port === 80 || port === 443) ? target.port : port;
  }

  /** The EGRESS_HOST_MAP form, for handing the map to child processes. */
  toString(): string {
    return [...this.entries]
      .map(([name, t]) => `${name}=${t.address.includes(":") ? `[${t.address}]` : t.address}:${t.port}`)
      .join(",");
  }

  toJSON(): Record<string, HostMapTarget> {
    return Object.fromEntries(this.entries);
  }
}
