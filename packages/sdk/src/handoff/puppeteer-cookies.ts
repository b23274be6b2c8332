import type { Cookie } from "../types";
import { isDomainCookie, isSessionCookie, urlOf, type SessionLike } from "./session-cookies";

/**
 * A cookie as `page.setCookie(...)` and CDP's `Network.setCookies` take it. A host-only cookie is given by
 * `url` (a `domain` would make Chromium widen it to the subdomains); a session cookie has no `expires`.
 */
export interface CdpCookieParam {
  name: string;
  value: string;
  url?: string;
  domain?: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: "Strict" | "Lax" | "None";
  expires?: number;
}

/** A cookie as Puppeteer's `browser.setCookie(...)` takes it (its type wants a `domain`, no `url`). */
export interface PuppeteerCookieData {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: "Strict" | "Lax" | "None";
  expires?: number;
}

function cdpCookie(cookie: Cookie, origins: readonly string[] | undefined): CdpCookieParam {
  return {
    name: cookie.name,
    value: cookie.value,
    ...(isDomainCookie(cookie) ? { domain: cookie.domain } : { url: urlOf(cookie, origins) }),
    path: cookie.path || "/",
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    sameSite: cookie.sameSite,
    ...(isSessionCookie(cookie) ? {} : { expires: cookie.expires }),
  };
}

/** For `await page.setCookie(...toPuppeteerCookies(session))`. */
export function toPuppeteerCookies(session: SessionLike): CdpCookieParam[] {
  return session.cookies.map((c) => cdpCookie(c, session.origins));
}

/**
 * For `await browser.setCookie(...toPuppeteerCookieData(session))` (Puppeteer 24+). Its cookies always
 * carry a domain; Chromium then lets a host-only cookie reach the host's subdomains too. Where that
 * matters, prefer `page.setCookie` with `toPuppeteerCookies`.
 */
export function toPuppeteerCookieData(session: SessionLike): PuppeteerCookieData[] {
  return session.cookies.map((c) => ({
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path || "/",
    secure: c.secure,
    httpOnly: c.httpOnly,
    sameSite: c.sameSite,
    ...(isSessionCookie(c) ? {} : { expires: c.expires }),
  }));
}

/** The params of CDP's `Network.setCookies`: `await cdp.send("Network.setCookies", toCdpSetCookies(session))`. */
export function toCdpSetCookies(session: SessionLike): { cookies: CdpCookieParam[] } {
  return { cookies: toPuppeteerCookies(session) };
}
