import { proxyHostAllowed } from "./proxy-allow";

describe("the operator's proxy allow-list", () => {
  const allow = ["10.20.0.0/16", "proxy.example.net", "*.proxies.example.org", "127.0.0.1", "fd00::/8"];
  it("allows hosts by name, subdomain, address and range", () => {
    for (const host of [
      "10.20.3.4",
      "proxy.example.net",
      "eu-1.proxies.example.org",
      "127.0.0.1",
      "[fd00::5]",
      "PROXY.example.net.",
    ]) {
      expect([host, proxyHostAllowed(host, allow)]).toEqual([host, true]);
    }
  });
  it("refuses anything else, and everything when the list is empty", () => {
    for (const host of [
      "10.21.0.1",
      "example.net",
      "proxies.example.org",
      "evil-proxy.example.net",
      "127.0.0.2",
      "169.254.169.254",
      "::1",
    ]) {
      expect([host, proxyHostAllowed(host, allow)]).toEqual([host, false]);
    }
    expect(proxyHostAllowed("127.0.0.1", [])).toBe(false);
  });
});
