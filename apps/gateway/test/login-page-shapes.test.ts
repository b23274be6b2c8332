import { attempts, call, closeDatabase, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";
import { LOGIN_CASES, type LoginCase } from "@authsvc/test-sites";

// Every fixture page shape, logged in through the service: HTTP -> queue -> worker -> browser -> answer.
let key: string;
beforeAll(async () => {
  ({ key } = await newTenant("Page shapes org"));
});
afterAll(closeDatabase);

function body(c: LoginCase, user: { username: string; password: string }) {
  return {
    domain: c.url(sitesUrl()),
    login_method: "password",
    cred: user,
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

describe.each(LOGIN_CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
  it(`ends with ${c.expect} for the right password`, async () => {
    const user = await newSiteUser("right-password-1", { email: true, locked: c.lockedUser });
    const res = await call("POST", "/v1/login", { key, body: body(c, user) });
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

  if (c.wrongPassword) {
    it(`answers a wrong password with ${c.wrongPassword}, the site's message and one attempt`, async () => {
      const user = await newSiteUser("right-password-2", { email: true, locked: c.lockedUser });
      const res = await call("POST", "/v1/login", { key, body: body(c, { ...user, password: "wrong-password" }) });
      expect([res.status, res.body.error?.code]).toEqual([422, c.wrongPassword]);
      expect(res.body.error.message).toMatch(/\w{3,}/);
      expect(await attempts(user.username)).toEqual({ [c.site]: 1 });
    });
  }
});
