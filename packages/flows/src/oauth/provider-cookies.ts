import type { BrowserContext, HTTPResponse, Page } from "@authsvc/browser";
import type { Cookie } from "@authsvc/contracts";
import { bringCookies } from "../page/bring-cookies";

/**
 * Which cookies are the provider's: those its hosts set during the login (read off their responses'
 * Set-Cookie), and those of its session we brought in. They are what the provider session keeps for the
 * next login with this account; the site's cookies never go there, even on a shared host name.
 */
export class ProviderCookies {
  /** Cookies of the kept provider session: the provider's wherever they came from. */
  private readonly kept = new Set<string>();
  /** Cookies set during the login, with the host (host[:port]) whose response set them. */
  private readonly set = new Map<string, Set<string>>();

  /**
   * `isProviderHost`: whether a host is the provider's (asked when a cookie's owner is decided, so hosts
   * learned during the login count). A site's own API host setting a cookie never makes it the provider's.
   */
  constructor(
    private readonly siteHost: string,
    private readonly isProviderHost: (host: string) => boolean,
  ) {}

  /** The cookies of the provider session kept from an earlier login, put into the browser before it starts. */
  async bringIn(context: BrowserContext, cookies: Cookie[]): Promise<void> {
    if (cookies.length === 0) return;
    for (const c of cookies) this.kept.add(key(c.name, c.domain));
    await bringCookies(context, cookies);
  }

  /** Reads the cookies every response from a host other than the site's sets, on this page (the tab, a popup). */
  follow(page: Page): void {
    page.on("response", (response: HTTPResponse) => {
      let url: URL;
      try {
        url = new URL(response.url());
      } catch {
        return;
      }
      if (url.host.toLowerCase() === this.siteHost) return;
      const header = response.headers()["set-cookie"];
      if (!header) return;
      for (const line of header.split("\n")) {
        const name = line.split("=")[0]?.trim();
        const domain = /;\s*domain=([^;]+)/i.exec(line)?.[1]?.trim().replace(/^\./, "") ?? url.hostname;
        if (!name) continue;
        const k = key(name, domain);
        this.set.set(k, (this.set.get(k) ?? new Set()).add(url.host.toLowerCase()));
      }
    });
  }

  /** Whether a cookie of the browser belongs to the provider. */
  owns(cookie: { name: string; domain: string }): boolean {
    const k = key(cookie.name, cookie.domain);
    return this.kept.has(k) || [...(this.set.get(k) ?? [])].some((host) => this.isProviderHost(host));
  }
}

const key = (name: string, domain: string) => `${name}\u0000${domain.replace(/^\./, "").toLowerCase()}`;
