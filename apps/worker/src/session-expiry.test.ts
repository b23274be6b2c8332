import type { Cookie, SessionResponse } from "@authsvc/contracts";
import { cacheExpiry } from "./session-expiry";

const cookie = (expires: number): Cookie => ({
  name: "c", value: "v", domain: "example.test", path: "/", expires, httpOnly: true, secure: true, sameSite: "Lax",
});
const state = (...expiries: number[]): SessionResponse => {
  const cookies = expiries.map(cookie);
  return { cookies, origins: [], storageState: { cookies, origins: [] } };
};
const now = Date.UTC(2026, 10, 22);

describe("cacheExpiry", () => {
  it("ends with the earliest persistent cookie, so a long-lived tracking cookie cannot outlast the session", () => {
    expect(cacheExpiry(state(now / 1000 + 300, now / 1000 + 86_400 * 365, -1), 3600, now)).toEqual(new Date(now + 300_000));
  });
  it("caps long-lived cookies at the configured TTL", () => {
    expect(cacheExpiry(state(now / 1000 + 86_400 * 30), 3600, now)).toEqual(new Date(now + 3_600_000));
  });
  it("gives session-only cookies and token-only sessions the configured TTL", () => {
    expect(cacheExpiry(state(-1), 120, now)).toEqual(new Date(now + 120_000));
    expect(cacheExpiry(state(), 120, now)).toEqual(new Date(now + 120_000));
  });
});
