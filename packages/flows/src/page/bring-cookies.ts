import type { BrowserContext } from "@authsvc/browser";
import type { Cookie } from "@authsvc/contracts";

/**
 * Puts cookies kept from an earlier run into a browser context before its page opens anything: a stored
 * session to check, a provider's kept session, a credential's remembered device. A cookie that ended with
 * its browser (no `expires`) stays a browser-session cookie.
 */
export async function bringCookies(context: BrowserContext, cookies: readonly Cookie[]): Promise<void> {
  if (cookies.length === 0) return;
  await context.setCookie(
    ...cookies.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path || "/",
      ...(c.expires > 0 ? { expires: c.expires } : {}),
      httpOnly: c.httpOnly,
      secure: c.secure,
      sameSite: c.sameSite,
    })),
  );
}
