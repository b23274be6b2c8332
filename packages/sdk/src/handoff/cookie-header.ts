import type { Cookie } from "../types";
import { hostOf, isDomainCookie, isSessionCookie, type SessionLike } from "./session-cookies";

/**
 * The `Cookie` header a browser would send to `url` with this session (RFC 6265 §5.4): domain match
 * (host-only cookies only to their host), path match, secure cookies only over https (and to localhost,
 * as browsers allow), expired cookies left out, longer paths first. Empty when no cookie applies.
 */
export function cookieHeaderFor(session: SessionLike, url: string | URL, now = Date.now()): string {
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

function domainMatches(cookie: Cookie, host: string): boolean {
  const domain = hostOf(cookie);
  if (!isDomainCookie(cookie)) return host === domain;
  return host === domain || host.endsWith(`.${domain}`);
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

function expired(cookie: Cookie, now: number): boolean {
  return !isSessionCookie(cookie) && cookie.expires * 1000 <= now;
}
