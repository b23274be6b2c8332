import { ageCachedSessions, attempts, call, closeDatabase, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";
import { newTotpSecret } from "@authsvc/crypto";
import { expectCaseSignedIn, LOGIN_CASES, type LoginCase } from "@authsvc/test-sites";

// Page shapes logged in through the service: HTTP -> queue -> worker -> browser -> answer. The engine's
// matrix (packages/flows/src/login/login-{cases,refusals}.test.ts) takes every fixture page shape, proves each
// session signs in and counts each attempt; here one case stands for each mechanism the service must
// carry from the page to the caller, so what lies between the engine and the answer is proven for each.
const MECHANISMS: Record<string, string> = {
  classic: "a host-only HttpOnly cookie from a server-rendered form",
  spa: "a localStorage token a single-page app keeps",
  "api-subdomain": "a cookie on the API's own subdomain beside a token on the app's origin",
  "idp-redirect": "an identity provider's redirect: its cookie and storage on another host",
  "iframe-cross-origin": "a form in a cross-origin frame",
  "stay-signed-in": "a persistent cookie, once the 'stay signed in?' question is answered",
  "additional-fields": "the request's additionalFields typed into the page",
  "german-form": "a page and its refusal in another language",
  "totp-split": "a TOTP code asked for after the password, and the site's refusal of a wrong one",
  "plain-text-lockout": "a lockout said in plain text, no alert markup: account_locked",
  "quiet-redirect": "a wrong password the page says nothing about: login_unconfirmed",
  "refusal-page-ja":
    "a refusal on a page of its own, in Japanese, beside load-balancer and CSRF cookies new on every response",
  "refusal-page-signs": "a refusal page without words beside cookies that rotate: login_unconfirmed, never a session",
  "identifier-branch-account":
    "several fields the username could go in: the caller names the others in additionalFields",
  "laravel-session":
    "a session cookie re-issued on every response (Laravel): signed in once the login page, opened again, sends on",
  [LOGIN_CASES.find((c) => c.unknownIdentifier)!.name]:
    "an identifier-first page refusing an unknown username on its first step",
  "locked-account": "a locked account with the right password",
  captcha: "a CAPTCHA the service cannot pass, never submitted",
  "otp-prompt": "a one-time code the caller cannot answer: mfa_required",
  "no-form": "a page without a login form",
  "focus-thief":
    "a page script that moves the focus while the keys go out: every field checked and typed again before the submit",
  "code-in-form": "an authenticator's code in the password's own form, typed from the secret",
  "code-in-form-no-secret":
    "a code the form wants beside the password and the request cannot give: mfa_required, never a wrong password",
  "picture-challenge":
    "a challenge known by its shape (a picture and a field asking for its characters), never submitted",
  "form-for-everyone":
    "a login page that shows its form to everyone: the dashboard, beside a visitor without the session, proves it",
  "app-root-token":
    "a single-page app at its root with a modal login, a token in storage and a long poll: signed in where a visitor is asked to log in",
  "logout-input":
    "a sign-out that is a submit input in a form (a database admin's), on a page whose address shows everyone the form",
  "profile-landing":
    "a login that lands on a profile form (its email among many fields) with a live 'sessions' region: no username step, no refusal",
};
const CASES = Object.keys(MECHANISMS).map((name) => {
  const c = LOGIN_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no fixture case ${name} (${MECHANISMS[name]})`);
  return c;
});

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

describe("several fields the username could go in", () => {
  it("is 422 form_ambiguous, each candidate named in details as the additionalFields key that fills it, with nothing sent", async () => {
    const c = LOGIN_CASES.find((x) => x.name === "identifier-branch-account")!;
    const user = await newSiteUser("ambiguous-1", { email: true });
    const res = await call("POST", "/v1/login", { key, body: { ...body(c, user), additionalFields: undefined } });
    expect([res.status, res.body.error.code]).toEqual([422, "form_ambiguous"]);
    expect(res.body.error.details).toEqual([
      { field: "/additionalFields/shiten", message: "支店番号" },
      { field: "/additionalFields/koza", message: "口座番号" },
      { field: "/additionalFields/keiyaku", message: "契約番号" },
    ]);
    expect(await attempts(user.username)).toEqual({});
  });
});

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
    const res = await call("POST", "/v1/login", {
      key,
      body: body(c, { username: "a@example.test", password: "b" }, "not a secret!"),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: "/cred/totpSecret", message: "is not a base32 secret or an otpauth://totp/ URI" },
    ]);
  });
});

describe.each(CASES.map((c) => [c.name, MECHANISMS[c.name]!, c] as const))("%s (%s)", (_name, _mechanism, c) => {
  it(`ends with ${c.expect} for the right password`, async () => {
    const totpSecret = c.totp ? newTotpSecret() : undefined;
    const user = await newSiteUser("right-password-1", { email: true, locked: c.lockedUser, totpSecret });
    const res = await call("POST", "/v1/login", { key, body: body(c, user, c.withoutSecret ? undefined : totpSecret) });
    if (c.expect !== "success") {
      expect([res.status, res.body.error?.code]).toEqual([422, c.expect]);
      if (c.expect === "captcha_blocked") expect(await attempts(user.username)).toEqual({}); // never submitted
      return;
    }
    expect(res.status).toBe(200);
    const { cookies, origins, storageState } = res.body;
    if (c.session?.cookie) {
      expect(cookies.find((k: any) => k.name === c.session!.cookie)).toMatchObject({
        domain: c.session.cookieDomain,
        httpOnly: true,
      });
    }
    if (c.session?.persistentDays) {
      expect(cookies.find((k: any) => k.name === c.session!.cookie)!.expires).toBeGreaterThan(
        Date.now() / 1000 + c.session.persistentDays * 86_400,
      );
    }
    for (const other of c.session?.otherCookies ?? []) {
      expect(cookies.find((k: any) => k.name === other.name)).toMatchObject({ domain: other.domain });
      expect(origins.map((o: string) => new URL(o).hostname)).toContain(other.domain);
    }
    if (c.session?.storageKey) {
      const origin = storageState.origins.find((o: any) => new URL(o.origin).hostname === c.session!.storageHost);
      expect(origin?.localStorage.map((e: any) => e.name)).toContain(c.session.storageKey);
    }
    if (c.session?.cookieDomain)
      expect(origins.map((o: string) => new URL(o).hostname)).toContain(c.session.cookieDomain);
    await expectCaseSignedIn(sitesUrl(), c, cookies, user.username);
    expect(await attempts(user.username)).toEqual({ [c.site]: 1 });
  });

  if (c.unknownIdentifier) {
    it("answers an unknown username with invalid_credentials and the site's words, on the first step", async () => {
      const res = await call("POST", "/v1/login", {
        key,
        body: body(c, { username: `nobody-${Date.now()}@example.test`, password: "any-password" }),
      });
      expect([res.status, res.body.error?.code, res.body.error?.message]).toEqual([
        422,
        "invalid_credentials",
        c.unknownIdentifier,
      ]);
    });
  }

  if (c.wrongCode) {
    it("answers a code the site refuses (the request's secret is not the account's) with verification_failed and its words", async () => {
      const user = await newSiteUser("right-password-5", { email: true, totpSecret: newTotpSecret() });
      const res = await call("POST", "/v1/login", { key, body: body(c, user, newTotpSecret()) });
      expect([res.status, res.body.error?.code, res.body.error?.message]).toEqual([
        422,
        "verification_failed",
        `the site refused the one-time code: ${c.wrongCode}`,
      ]);
      expect(await attempts(user.username)).toEqual({ [c.site]: 1 });
    });
  }

  if (c.wrongPassword) {
    it(`answers a wrong password with ${c.wrongPassword}, the site's message and one attempt`, async () => {
      const totpSecret = c.totp ? newTotpSecret() : undefined;
      const user = await newSiteUser("right-password-2", { email: true, locked: c.lockedUser, totpSecret });
      const res = await call("POST", "/v1/login", {
        key,
        body: body(c, { ...user, password: "wrong-password" }, totpSecret),
      });
      expect([res.status, res.body.error?.code]).toEqual([422, c.wrongPassword]);
      expect(res.body.error.message).toMatch(/\p{L}{3,}/u);
      if (c.refusal) expect(res.body.error.message).toContain(c.refusal);
      expect(await attempts(user.username)).toEqual({ [c.site]: 1 });
    });
  }
});

describe("a site that asks for a passkey first", () => {
  it("is answered 'no passkey' at once, and signs in by the password behind 'Try another way' and the site's list of methods", async () => {
    const c = LOGIN_CASES.find((x) => x.name === "passkey-first")!;
    const user = await newSiteUser("passkey-first-1");
    const res = await call("POST", "/v1/login", { key, body: body(c, user) });
    expect(res.status).toBe(200);
    await expectCaseSignedIn(sitesUrl(), c, res.body.cookies, user.username);
    // The page asked once, and the browser's authenticator (holding no passkey for the site) refused it.
    const seen = await (
      await fetch(`${sitesUrl()}/__fixture/passkey-first/${encodeURIComponent(user.username)}`)
    ).json();
    expect(seen).toEqual({ prompts: 1, refused: 1 });
    expect(await attempts(user.username)).toEqual({ "passkey-first": 1 });
  });
});

describe("a site behind HTTP authentication (a Basic challenge)", () => {
  const at = (site: string) => `${sitesUrl()}/cases/${site}/admin/`;

  it("is answered with the credentials; the session comes with them as httpCredentials, and a wrong password is invalid_credentials", async () => {
    const user = await newSiteUser("http-basic-1");
    const res = await call("POST", "/v1/login", {
      key,
      body: { domain: at("http-basic-only"), login_method: "password", cred: user, useCache: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.httpCredentials).toEqual({ username: user.username, password: user.password, origin: sitesUrl() });
    const page = await fetch(at("http-basic-only"), {
      headers: { authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString("base64")}` },
    });
    expect(await page.text()).toContain(`Welcome, ${user.username}`);

    const wrong = await call("POST", "/v1/login", {
      key,
      body: {
        domain: at("http-basic"),
        login_method: "password",
        cred: { ...user, password: "wrong-password" },
        useCache: false,
      },
    });
    expect([wrong.status, wrong.body.error?.code]).toEqual([422, "invalid_credentials"]);
    expect(await attempts(user.username)).toEqual({ "http-basic-only": 1, "http-basic": 1 });
  });
});

describe("a site that binds its session to the browser's User-Agent", () => {
  it("answers the User-Agent the session was made with; the session opens the account with it, and the cache's check sends it", async () => {
    const own = await newTenant("User-Agent org");
    const user = await newSiteUser();
    const body = { domain: `${sitesUrl()}/cases/ua-bound/login`, login_method: "password", cred: user };
    const res = await call("POST", "/v1/login", { key: own.key, body });
    expect(res.status).toBe(200);
    expect(res.body.userAgent).toMatch(/^Mozilla\/5\.0 \(.+\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\/\d+/);
    const cookie = res.body.cookies.map((c: any) => `${c.name}=${c.value}`).join("; ");
    const account = (userAgent: string) =>
      fetch(`${sitesUrl()}/cases/ua-bound/account`, {
        headers: { cookie, "user-agent": userAgent },
        redirect: "manual",
      });
    expect(await (await account(res.body.userAgent)).text()).toContain(`Welcome, ${user.username}`);

    // Last checked long ago: the cache's check reads the page with the session's User-Agent, finds it
    // signed in, and serves it (with another one, the site would have signed it out).
    expect(await ageCachedSessions(own.orgId)).toBe(1);
    const cached = await call("POST", "/v1/login", { key: own.key, body });
    expect([cached.status, cached.headers.get("x-auth-cache"), cached.body.cookies]).toEqual([
      200,
      "hit",
      res.body.cookies,
    ]);
    expect((await account(res.body.userAgent)).status).toBe(200);

    // The binding is the site's: another User-Agent is signed out.
    expect((await account("Mozilla/5.0 (X11; Linux x86_64) curl-like")).status).toBe(302);
    expect((await account(res.body.userAgent)).status).toBe(302);
  });
});
