import type { Cookie } from "./session";

/**
 * The `Cookie` header a browser would send to `url` with these cookies (RFC 6265 §5.4): domain match
 * (host-only cookies only to their host), path match, secure cookies only over https (and to localhost,
 * as browsers allow), expired cookies left out, longer paths first. Empty when no cookie applies.
 *
 * The service's copy (the session check reads sites with it). The SDK, published without any workspace
 * package, keeps its own in packages/sdk/src/handoff/cookie-header.ts; a test there holds the two to the
 * same answers.
 */
export function cookieHeaderFor(session: { cookies: readonly Cookie[] }, url: string | URL, now = Date.now()): string {
  const target = new URL(url);
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const secureChannel = target.protocol === "https:" || host === "localhost" || host === "127.0.0.1" || host === "::1";
  return session.cookies
    .filter(
      (c) =>
        domainMatches(c, host) &&
        pathMatches(c.path || "/", target.pathname || "/") &&
        (!c.secure || secureChannel) &&
        !expired(c, now),
    )
    .sort((a, b) => (b.path || "/").length - (a.path || "/").length)
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
}

/** `.example.com` covers subdomains; `example.com` is host-only (the convention of Chromium, Playwright and curl). */
function domainMatches(cookie: Cookie, host: string): boolean {
  const domain = cookie.domain.replace(/^\./, "").toLowerCase();
  if (!cookie.domain.startsWith(".")) return host === domain;
  return host === domain || host.endsWith(`.${domain}`);
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

/** A session cookie (-1, or no positive expiry) never expires here. */
function expired(cookie: Cookie, now: number): boolean {
  const sessionCookie = cookie.expires === -1 || !(cookie.expires > 0);
  return !sessionCookie && cookie.expires * 1000 <= now;
}
