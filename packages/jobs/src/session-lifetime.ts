import type { SessionResponse } from "@authsvc/contracts";

/**
 * A session's lifetime, decided here only. Two instants, for two different readers:
 *
 * - `servedUntil`: until when we hand the session out without a browser (the session cache's TTL and the
 *   stored session's `expiresAt`, which keep-alive watches). The EARLIEST persistent cookie's expiry, never
 *   past the configured maximum: we cannot tell which cookie is the session, and serving a dead one is worse
 *   than logging in again.
 * - `expiresAt`: what the API tells the caller (a signup's, refresh's or verify's `expiresAt`, and the
 *   `session.refreshed` event's `sessionExpiresAt`). The LATEST persistent cookie's expiry: whichever cookie
 *   lives longest may keep the site signed in, and the caller keeps the cookies themselves. Absent when
 *   every cookie is a browser-session cookie (the site signs out when the browser closes).
 *
 * `servedUntil <= expiresAt` whenever both exist; an event and an answer about the same session always
 * carry the same `expiresAt`.
 */
export interface SessionLifetime {
  servedUntil: Date;
  expiresAt?: string;
}

export function sessionLifetime(state: SessionResponse, maxTtlSeconds: number, now = Date.now()): SessionLifetime {
  const servedUntil = new Date(Math.min(now + maxTtlSeconds * 1000, ...persistentExpiries(state)));
  const expiresAt = sessionExpiresAt(state);
  return expiresAt ? { servedUntil, expiresAt } : { servedUntil };
}

/** The API's `expiresAt` alone (see above): the latest persistent cookie's expiry, ISO 8601. */
export function sessionExpiresAt(state: SessionResponse): string | undefined {
  const persistent = persistentExpiries(state);
  return persistent.length ? new Date(Math.max(...persistent)).toISOString() : undefined;
}

function persistentExpiries(state: SessionResponse): number[] {
  return state.cookies.filter((c) => c.expires > 0).map((c) => c.expires * 1000);
}
