import type { Cookie, SessionResponse } from "../types";
import { cookieHeaderFor } from "./cookie-header";
import { toNetscapeCookieJar } from "./netscape-cookie-jar";
import { toPlaywrightStorageState } from "./playwright-storage-state";
import { toCdpSetCookies, toPuppeteerCookieData, toPuppeteerCookies } from "./puppeteer-cookies";

const cookie = (c: Partial<Cookie> & Pick<Cookie, "name" | "domain">): Cookie => ({
  value: `v-${c.name}`,
  path: "/",
  expires: -1,
  httpOnly: false,
  secure: false,
  sameSite: "Lax",
  ...c,
});

// A session like the API answers: a host-only session cookie, a domain cookie with an expiry, a secure one, a path one.
const cookies: Cookie[] = [
  cookie({ name: "sid", domain: "app.example.com", httpOnly: true, sameSite: "Strict" }),
  cookie({ name: "pref", domain: ".example.com", expires: 1_900_000_000.5, sameSite: "None", secure: true }),
  cookie({ name: "admin", domain: "app.example.com", path: "/admin", expires: 1_900_000_000 }),
  cookie({ name: "old", domain: "app.example.com", expires: 1_000_000_000 }),
];
const session: SessionResponse = {
  cookies,
  origins: ["https://app.example.com:8443", "https://id.example.org"],
  storageState: {
    cookies,
    origins: [{ origin: "https://app.example.com:8443", localStorage: [{ name: "token", value: "t" }] }],
  },
};

describe("toPlaywrightStorageState", () => {
  it("is the session's storageState, as a copy the context may change", () => {
    const state = toPlaywrightStorageState(session);
    expect(state).toEqual(session.storageState);
    state.cookies[0]!.value = "changed";
    expect(session.storageState.cookies[0]!.value).toBe("v-sid");
  });

  it("builds one from bare cookies", () => {
    expect(toPlaywrightStorageState({ cookies: [cookies[0]!] })).toEqual({ cookies: [cookies[0]], origins: [] });
  });
});

describe("toPuppeteerCookies and toCdpSetCookies", () => {
  it("give host-only cookies by the session's own origin (scheme and port), domain cookies by domain, and no expiry to session cookies", () => {
    const [sid, pref, admin] = toPuppeteerCookies(session);
    expect(sid).toEqual({
      name: "sid",
      value: "v-sid",
      url: "https://app.example.com:8443/",
      path: "/",
      secure: false,
      httpOnly: true,
      sameSite: "Strict",
    });
    expect(pref).toEqual({
      name: "pref",
      value: "v-pref",
      domain: ".example.com",
      path: "/",
      secure: true,
      httpOnly: false,
      sameSite: "None",
      expires: 1_900_000_000.5,
    });
    expect(admin).toMatchObject({ url: "https://app.example.com:8443/admin", path: "/admin", expires: 1_900_000_000 });
    expect(toCdpSetCookies(session)).toEqual({ cookies: toPuppeteerCookies(session) });
  });

  it("pick the scheme from the cookie's secure flag without an origin for its host", () => {
    const [plain, secure] = toPuppeteerCookies({
      cookies: [cookie({ name: "a", domain: "x.test" }), cookie({ name: "b", domain: "y.test", secure: true })],
    });
    expect([plain!.url, secure!.url]).toEqual(["http://x.test/", "https://y.test/"]);
  });

  it("toPuppeteerCookieData always names the domain (browser.setCookie)", () => {
    expect(toPuppeteerCookieData(session).map((c) => [c.domain, "expires" in c])).toEqual([
      ["app.example.com", false],
      [".example.com", true],
      ["app.example.com", true],
      ["app.example.com", true],
    ]);
  });
});

describe("toNetscapeCookieJar", () => {
  it("writes curl's format: #HttpOnly_ prefix, subdomain flag from the leading dot, 0 for session cookies", () => {
    const lines = toNetscapeCookieJar(session).trimEnd().split("\n");
    expect(lines[0]).toBe("# Netscape HTTP Cookie File");
    expect(lines.filter((l) => !l.startsWith("# ") && l !== "")).toEqual([
      "#HttpOnly_app.example.com\tFALSE\t/\tFALSE\t0\tsid\tv-sid",
      ".example.com\tTRUE\t/\tTRUE\t1900000000\tpref\tv-pref",
      "app.example.com\tFALSE\t/admin\tFALSE\t1900000000\tadmin\tv-admin",
      "app.example.com\tFALSE\t/\tFALSE\t1000000000\told\tv-old",
    ]);
  });
});

describe("cookieHeaderFor", () => {
  const now = 1_800_000_000_000;
  it("sends host-only cookies to their host only, domain cookies to subdomains, longer paths first, expired ones never", () => {
    expect(cookieHeaderFor(session, "https://app.example.com/admin/users", now)).toBe(
      "admin=v-admin; sid=v-sid; pref=v-pref",
    );
    expect(cookieHeaderFor(session, "https://api.example.com/", now)).toBe("pref=v-pref");
    expect(cookieHeaderFor(session, "https://example.com/", now)).toBe("pref=v-pref");
    expect(cookieHeaderFor(session, "https://evil-example.com/", now)).toBe("");
    expect(cookieHeaderFor(session, "https://sub.app.example.com/", now)).toBe("pref=v-pref");
  });

  it("matches paths on segment boundaries and keeps secure cookies off plain http (but not off localhost)", () => {
    expect(cookieHeaderFor(session, "http://app.example.com/administrator", now)).toBe("sid=v-sid");
    const local = { cookies: [cookie({ name: "s", domain: "localhost", secure: true })] };
    expect(cookieHeaderFor(local, "http://localhost:3000/", now)).toBe("s=v-s");
  });
});
