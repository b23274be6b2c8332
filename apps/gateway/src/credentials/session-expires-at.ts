import type { SessionResponse } from "@authsvc/contracts";

/**
 * When a session ends by its cookies: the latest persistent cookie's expiry (whichever lives longest keeps
 * the site signed in), as ISO 8601; undefined when every cookie is a browser-session cookie.
 */
export function sessionExpiresAt(session: SessionResponse): string | undefined {
  const persistent = session.cookies.filter((c) => c.expires > 0).map((c) => c.expires);
  return persistent.length ? new Date(Math.max(...persistent) * 1000).toISOString() : undefined;
}
