import type { Cookie, SessionResponse } from "../types";

/** A session body, or just its cookies: every hand-off helper takes either. */
export type SessionLike = Pick<SessionResponse, "cookies"> & Partial<Pick<SessionResponse, "origins" | "storageState">>;

/** `.example.com` covers subdomains; `example.com` is host-only (the convention of Chromium, Playwright and curl). */
export function isDomainCookie(cookie: Pick<Cookie, "domain">): boolean {
  return cookie.domain.startsWith(".");
}

export function hostOf(cookie: Pick<Cookie, "domain">): string {
  return cookie.domain.replace(/^\./, "").toLowerCase();
}

export function isSessionCookie(cookie: Pick<Cookie, "expires">): boolean {
  return cookie.expires === -1 || !(cookie.expires > 0);
}

/**
 * The URL a host-only cookie belongs to, for APIs that make host-only cookies only from a URL (CDP,
 * Puppeteer): the session's own origin for that host when it has one (its scheme and port), else
 * https for a secure cookie and http otherwise.
 */
export function urlOf(cookie: Cookie, origins: readonly string[] = []): string {
  const host = hostOf(cookie);
  const origin = origins.find((o) => {
    try {
      return new URL(o).hostname.toLowerCase() === host;
    } catch {
      return false;
    }
  });
  const base = origin ?? `${cookie.secure ? "https" : "http"}://${host}`;
  return new URL(cookie.path || "/", base).toString();
}
