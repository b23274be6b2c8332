import type { Cookie, SessionResponse } from "@authsvc/contracts";
import { sessionLifetime } from "./session-lifetime";

const cacheExpiry = (s: SessionResponse, maxTtlSeconds: number, at: number) =>
  sessionLifetime(s, maxTtlSeconds, at).servedUntil;

const cookie = (expires: number): Cookie => ({
  name: "c",
  value: "v",
  domain: "example.test",
  path: "/",
  expires,
  httpOnly: true,
  secure: true,
  sameSite: "Lax",
});
const state = (...expiries: number[]): SessionResponse => {
  const cookies = expiries.map(cookie);
  return { cookies, origins: [], storageState: { cookies, origins: [] } };
};
const now = Date.UTC(2026, 10, 22);

describe("servedUntil (the cache's and the stored session's end)", () => {
  it("ends with the earliest persistent cookie, so a long-lived tracking cookie cannot outlast the session", () => {
    expect(cacheExpiry(state(now / 1000 + 300, now / 1000 + 86_400 * 365, -1), 3600, now)).toEqual(
      new Date(now + 300_000),
    );
  });
  it("caps long-lived cookies at the configured TTL", () => {
    expect(cacheExpiry(state(now / 1000 + 86_400 * 30), 3600, now)).toEqual(new Date(now + 3_600_000));
  });
  it("gives session-only cookies and token-only sessions the configured TTL", () => {
    expect(cacheExpiry(state(-1), 120, now)).toEqual(new Date(now + 120_000));
    expect(cacheExpiry(state(), 120, now)).toEqual(new Date(now + 120_000));
  });
});

describe("expiresAt (what the API and the session.refreshed event say)", () => {
  it("is the latest persistent cookie's expiry, past the cache's end and past the configured TTL", () => {
    const lifetime = sessionLifetime(state(now / 1000 + 300, now / 1000 + 86_400 * 365, -1), 3600, now);
    expect(lifetime.expiresAt).toBe(new Date(now + 86_400_000 * 365).toISOString());
    expect(lifetime.servedUntil.getTime()).toBeLessThan(Date.parse(lifetime.expiresAt!));
  });
  it("is absent when every cookie ends with the browser", () => {
    expect(sessionLifetime(state(-1), 120, now)).toEqual({ servedUntil: new Date(now + 120_000) });
    expect(sessionLifetime(state(), 120, now).expiresAt).toBeUndefined();
  });
});
