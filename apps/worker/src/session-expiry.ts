import type { SessionResponse } from "@authsvc/contracts";

/**
 * Until when a captured session may be served from the cache: the earliest persistent cookie's expiry (we
 * cannot tell which cookie is the session, and serving a dead one is worse than logging in again), never
 * longer than the configured maximum.
 */
export function cacheExpiry(state: SessionResponse, maxTtlSeconds: number, now = Date.now()): Date {
  const cap = now + maxTtlSeconds * 1000;
  const persistent = state.cookies.filter((c) => c.expires > 0).map((c) => c.expires * 1000);
  return new Date(Math.min(cap, ...persistent));
}
