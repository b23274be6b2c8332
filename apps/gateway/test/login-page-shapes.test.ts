import { attempts, call, closeDatabase, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";
import { newTotpSecret } from "@authsvc/crypto";
import { LOGIN_CASES, type LoginCase } from "@authsvc/test-sites";

// Every fixture page shape, logged in through the service: HTTP -> queue -> worker -> browser -> answer.
let key: string;
beforeAll(async () => {
  ({ key } = await newTenant("Page shapes org"));
});
afterAll(closeDatabase);

function body(c: LoginCase, user: { username: string; password: string }, totpSecret?: string) {
  return {
    domain: c.url(sitesUrl()),
    login_method: "password",
    cred: totpSecret ? { ...user, totpSecret } : user,
    useCache: false,
    ...(c.additionalFields ? { additionalFields: c.additionalFields } : {}),
  };
}

/** The session the service returned really is signed in on the site (for cases that show an account page). */
async function expectSignedIn(c: LoginCase, cookies: Array<{ name: string; value: string }>, username: string): Promise<void> {
  if (!c.account) return;
  const sid = cookies.find((k) => k.name === c.session!.cookie)!;
  const res = await fetch(`${sitesUrl()}${c.account}`, { headers: { cookie: `${sid.name}=${sid.value}` }, redirect: "manual" });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain(`Welcome, ${username}`);
}

describe("a TOTP code after the password", () => {
  it("signs in with login_method totp, the method for a password and an authenticator code", async () => {
    const c = LOGIN_CASES.find((x) => x.name === "totp-split")!;
    const totpSecret = newTotpSecret();
    const user = await newSiteUser("right-password-4", { email: true, totpSecret });
    const res = await call("POST", "/v1/login", { key, body: { ...body(c, user, totpSecret), login_method: "totp" } });
    expect(res.status).toBe(200);
    expect(res.body.cookies.map((k: any) => k.name)).toContain("totp_split_sid");
  });

  it("is 400 when the secret cannot be read, naming the field", async () => {
    const c = LOGIN_CASES.find((x) => x.name === "totp-split")!;
    const res = await call("POST", "/v1/login", { key, body: body(c, { username: "a@example.test", password: "b" }, "not a secret!") });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: "/cred/totpSecret", message: "is not a base32 secret or an otpauth://totp/ URI" }]);
  });
});

describe.each(LOGIN_CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
  it(`ends with ${c.expect} for the right password`, async () => {
    const totpSecret = c.totp ? newTotpSecret() : undefined;
    const user = await newSiteUser("right-password-1", { email: true, locked: c.lockedUser, totpSecret });
    const res = await call("POST", "/v1/login", { key, body: body(c, user, totpSecret) });
    if (c.expect !== "success") {
      expect([res.status, res.body.error?.code]).toEqual([422, c.expect]);
      if (c.expect === "captcha_blocked") expect(await attempts(user.username)).toEqual({}); // never submitted
      return;
    }
    expect(res.status).toBe(200);
    const { cookies, origins, storageState } = res.body;
    if (c.session?.cookie) {
      expect(cookies.find((k: any) => k.name === c.session!.cookie)).toMatchObject({ domain: c.session.cookieDomain, httpOnly: true });
    }
    if (c.session?.persistentDays) {
      expect(cookies.find((k: any) => k.name === c.session!.cookie)!.expires).toBeGreaterThan(Date.now() / 1000 + c.session.persistentDays * 86_400);
    }
    for (const other of c.session?.otherCookies ?? []) {
      expect(cookies.find((k: any) => k.name === other.name)).toMatchObject({ domain: other.domain });
      expect(origins.map((o: string) => new URL(o).hostname)).toContain(other.domain);
    }
    if (c.session?.storageKey) {
      const origin = storageState.origins.find((o: any) => new URL(o.origin).hostname === c.session!.storageHost);
      expect(origin?.localStorage.map((e: any) => e.name)).toContain(c.session.storageKey);
    }
    if (c.session?.cookieDomain) expect(origins.map((o: string) => new URL(o).hostname)).toContain(c.session.cookieDomain);
    await expectSignedIn(c, cookies, user.username);
    expect(await attempts(user.username)).toEqual({ [c.site]: 1 });
  });

  if (c.unknownIdentifier) {
    it("answers an unknown username with invalid_credentials and the site's words, on the first step", async () => {
      const res = await call("POST", "/v1/login", { key, body: body(c, { username: `nobody-${Date.now()}@example.test`, password: "any-password" }) });
      expect([res.status, res.body.error?.code, res.body.error?.message]).toEqual([422, "invalid_credentials", c.unknownIdentifier]);
    });
  }

  if (c.wrongCode) {
    it("answers a code the site refuses (the request's secret is not the account's) with verification_failed and its words", async () => {
      const user = await newSiteUser("right-password-5", { email: true, totpSecret: newTotpSecret() });
      const res = await call("POST", "/v1/login", { key, body: body(c, user, newTotpSecret()) });
      expect([res.status, res.body.error?.code, res.body.error?.message]).toEqual([422, "verification_failed", `the site refused the one-time code: ${c.wrongCode}`]);
      expect(await attempts(user.username)).toEqual({ [c.site]: 1 });
    });
  }

  if (c.wrongPassword) {
    it(`answers a wrong password with ${c.wrongPassword}, the site's message and one attempt`, async () => {
      const totpSecret = c.totp ? newTotpSecret() : undefined;
      const user = await newSiteUser("right-password-2", { email: true, locked: c.lockedUser, totpSecret });
      const res = await call("POST", "/v1/login", { key, body: body(c, { ...user, password: "wrong-password" }, totpSecret) });
      expect([res.status, res.body.error?.code]).toEqual([422, c.wrongPassword]);
      expect(res.body.error.message).toMatch(/\w{3,}/);
      expect(await attempts(user.username)).toEqual({ [c.site]: 1 });
    });
  }
});
