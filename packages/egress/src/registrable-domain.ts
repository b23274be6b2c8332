import { getDomain } from "tldts";

/**
 * The domain a host was registered under, by the Public Suffix List (private suffixes included): `shop.co.uk`
 * for `app.shop.co.uk`, `alice.github.io` for itself. An IP address or a bare name is its own domain.
 */
export function registrableDomain(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, "");
  return getDomain(lower, { allowPrivateDomains: true }) ?? lower;
}
