import { isDomainCookie, isSessionCookie, type SessionLike } from "./session-cookies";

/**
 * The cookies as a Netscape cookie file, for `curl -b jar.txt` (and wget, Python's MozillaCookieJar):
 * one line per cookie, tab-separated: domain (with `#HttpOnly_` before it for an HttpOnly cookie),
 * whether subdomains match, path, secure, expiry (0 for a session cookie), name, value.
 */
export function toNetscapeCookieJar(session: SessionLike): string {
  const lines = [
    "# Netscape HTTP Cookie File",
    "# Written by @authsvc/sdk. It holds live session cookies: keep it private.",
    "",
  ];
  for (const c of session.cookies) {
    const domain = `${c.httpOnly ? "#HttpOnly_" : ""}${c.domain}`;
    const expires = isSessionCookie(c) ? 0 : Math.floor(c.expires);
    lines.push(
      [
        domain,
        isDomainCookie(c) ? "TRUE" : "FALSE",
        c.path || "/",
        c.secure ? "TRUE" : "FALSE",
        String(expires),
        c.name,
        c.value,
      ].join("\t"),
    );
  }
  return `${lines.join("\n")}\n`;
}
