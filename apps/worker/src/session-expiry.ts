import type { SessionResponse } from "@authsvc/contracts";

/**
 * Until when a captured session may be served again: the latest persistent cookie's expiry, but never
 * longer than the configured maximum (session-only cookies give no expiry of their own).
 */
export function sessionExpiry(state: SessionResponse, maxTtlSeconds: number, now = Date.now()): Date {
  const cap = now + maxTtlSeconds * 1000;
  const persistent = state.cookies.filter((c) => c.expires > 0).map((c) => c.expires * 1000);
  if (persistent.length === 0) return new Date(cap);
  return new Date(Math.min(cap, Math.max(...persistent)));
}
