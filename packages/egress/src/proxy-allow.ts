import { BlockList, isIP } from "node:net";

/**
 * Whether an organization's proxy may be at `host`, by the operator's allow-list (EGRESS_PROXY_ALLOW):
 * a host name (`*.example.net` for its subdomains), an IP address, or a CIDR range. The proxy's own host is
 * checked as written, never resolved: a name is allowed by name, an address by address.
 */
export function proxyHostAllowed(host: string, allow: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  const family = isIP(name);
  for (const entry of allow) {
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    if (family && cidr && isIP(cidr[1]!)) {
      const list = new BlockList();
      const type = isIP(cidr[1]!) === 6 ? "ipv6" : "ipv4";
      try {
        list.addSubnet(cidr[1]!, Number(cidr[2]), type);
      } catch {
        continue;
      }
      if (list.check(name, family === 6 ? "ipv6" : "ipv4")) return true;
    } else if (entry.startsWith("*.")) {
      if (!family && name.endsWith(entry.slice(1))) return true;
    } else if (entry === name) {
      return true;
    }
  }
  return false;
}
