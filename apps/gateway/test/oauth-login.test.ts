import { newTotpSecret, parseTotpSecret, totpCode } from "@authsvc/crypto";
import { call, closeDatabase, database, newTenant, sitesUrl, waitFor } from "@authsvc/devstack";

// OAuth logins through the HTTP API: the fixture provider Acme ID (oidc-provider) and two relying-party
// sites built with openid-client, started with the fixture sites (GET /__fixture/oauth says where).
let tenant: Awaited<ReturnType<typeof newTenant>>;
let oauth: { issuer: string; sites: { a: string; b: string } };
beforeAll(async () => {
  tenant = await newTenant("OAuth org");
  oauth = await (await fetch(`${sitesUrl()}/__fixture/oauth`)).json();
});
afterAll(() => closeDatabase());

let seq = 0;
/** A provider account of its own on Acme ID, linked to an account on both sites. */
async function newProviderAccount(): Promise<{ email: string; password: string }> {
  const account = { email: `e2e-oauth-${++seq}-${Date.now()}@acme.test`, password: `acme-e2e-${seq}` };
  const post = (url: string, body: unknown) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post(`${oauth.issuer}/__fixture/users`, account)).status).toBe(200);
  for (const site of [oauth.sites.a, oauth.sites.b])
    expect((await post(`${site}/__fixture/links`, { email: account.email })).status).toBe(200);
  return account;
}

const passwordSubmissions = async (email: string): Promise<number> =>
  (
    (await (await fetch(`${oauth.issuer}/__fixture/users/${encodeURIComponent(email)}`)).json()) as {
      passwordSubmissions: number;
    }
  ).passwordSubmissions;

/** Whether the answer's cookies open the site's signed-in page, for this account. */
async function opensAccount(
  site: string,
  cookies: Array<{ name: string; value: string; domain: string }>,
  email: string,
): Promise<boolean> {
  const header = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const res = await fetch(`${site}/account`, { headers: { cookie: header }, redirect: "manual" });
  return res.status === 200 && (await res.text()).includes(email);
}

const oauthLogin = (site: string, account: { email: string; password: string }, extra: Record<string, unknown> = {}) =>
  call("POST", "/v1/login", {
    key: tenant.key,
    body: {
      domain: `${site}/login`,
      login_method: "oauth",
      cred: { provider: "Acme ID", email: account.email, password: account.password },
      useCache: false,
      ...extra,
    },
  });

describe("POST /v1/login with login_method oauth", () => {
  it("signs in through the provider; the cookies open the site; the provider session is reused on a second site", async () => {
    const account = await newProviderAccount();
    const first = await oauthLogin(oauth.sites.a, account);
    expect(first.status).toBe(200);
    expect(first.body.origins).toEqual(expect.arrayContaining([oauth.sites.a, oauth.issuer]));
    expect(await opensAccount(oauth.sites.a, first.body.cookies, account.email)).toBe(true);

    const second = await oauthLogin(oauth.sites.b, account);
    expect(second.status).toBe(200);
    expect(await opensAccount(oauth.sites.b, second.body.cookies, account.email)).toBe(true);
    // Signed in at the provider once: the second site used the kept provider session.
    expect(await passwordSubmissions(account.email)).toBe(1);

    // The kept provider session is encrypted at rest: no cookie value in the clear.
    const rows = await database().prisma.providerSession.findMany({ where: { orgId: tenant.orgId } });
    expect(rows).toHaveLength(1);
    for (const cookie of first.body.cookies)
      if (cookie.value.length >= 8) expect(rows[0]!.state).not.toContain(cookie.value);
  });

  it("refreshes an OAuth credential through the provider", async () => {
    const account = await newProviderAccount();
    const login = await oauthLogin(oauth.sites.a, account);
    expect(login.status).toBe(200);
    const credentials = await call("GET", "/v1/credentials", { key: tenant.key });
    const credential = credentials.body.credentials.find((c: { username: string }) => c.username === account.email);
    const refreshed = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { credentialId: credential.credentialId },
    });
    expect(refreshed.status).toBe(200);
    expect(await opensAccount(oauth.sites.a, refreshed.body.cookies, account.email)).toBe(true);
  });

  it("answers the provider's refusal of the password with invalid_credentials, after one submission there", async () => {
    const account = await newProviderAccount();
    const res = await oauthLogin(oauth.sites.a, { ...account, password: "wrong-password" });
    expect(res.status).toBe(422);
    expect(`${res.body.error.code}: ${res.body.error.message}`).toMatch(/^invalid_credentials: /);
    expect(await passwordSubmissions(account.email)).toBe(1);
  });

  it("answers a page without the provider's button with form_not_found naming the provider", async () => {
    const account = await newProviderAccount();
    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${oauth.sites.a}/login-no-provider`,
        login_method: "oauth",
        cred: { provider: "Acme ID", email: account.email, password: account.password },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("form_not_found");
    expect(res.body.error.message).toContain("Acme ID");
    expect(await passwordSubmissions(account.email)).toBe(0);
  });
});

describe("POST /v1/login with login_method oauth: the provider account's turn and second factor", () => {
  it("runs two concurrent logins through one provider account one after the other: the provider sees one password", async () => {
    const account = await newProviderAccount();
    const [a, b] = await Promise.all([oauthLogin(oauth.sites.a, account), oauthLogin(oauth.sites.b, account)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await opensAccount(oauth.sites.a, a.body.cookies, account.email)).toBe(true);
    expect(await opensAccount(oauth.sites.b, b.body.cookies, account.email)).toBe(true);
    expect(await passwordSubmissions(account.email)).toBe(1);
  });

  it("answers the code the provider emails, read in one of our mailboxes", async () => {
    const created = await call("POST", "/v1/mailboxes", { key: tenant.key, body: {} });
    expect(created.status).toBe(201);
    const account = { email: created.body.address as string, password: `acme-code-${Date.now()}` };
    const post = (url: string, body: unknown) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    await post(`${oauth.issuer}/__fixture/users`, { ...account, emailCode: true });
    await post(`${oauth.sites.a}/__fixture/links`, { email: account.email });
    const res = await oauthLogin(oauth.sites.a, account);
    expect(res.status).toBe(200);
    expect(await opensAccount(oauth.sites.a, res.body.cookies, account.email)).toBe(true);
  });

  it("hands the provider's authenticator step to a person when the request has no totpSecret: mfa_required without a hand-off, signed in with one", async () => {
    const totpSecret = newTotpSecret();
    const account = { email: `e2e-oauth-totp-${Date.now()}@acme.test`, password: `acme-totp-${Date.now()}` };
    const post = (url: string, body: unknown) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await post(`${oauth.issuer}/__fixture/users`, { ...account, totpSecret })).status).toBe(200);
    expect((await post(`${oauth.sites.a}/__fixture/links`, { email: account.email })).status).toBe(200);
    const alone = await oauthLogin(oauth.sites.a, account);
    expect([alone.status, alone.body.error?.code]).toEqual([422, "mfa_required"]);

    const res = await oauthLogin(oauth.sites.a, account, { allowHandoff: true });
    expect(res.status).toBe(202);
    expect(res.body.input).toMatchObject({ reason: "code", fields: ["code"] });
    const code = totpCode(parseTotpSecret(totpSecret), Date.now());
    expect((await call("POST", `/v1/jobs/${res.body.jobId}/input`, { key: tenant.key, body: { code } })).status).toBe(
      202,
    );
    const done = await waitFor("the job ended", async () => {
      const j = (await call("GET", `/v1/jobs/${res.body.jobId}`, { key: tenant.key })).body;
      return j.status === "succeeded" || j.status === "failed" ? j : null;
    });
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    expect(await opensAccount(oauth.sites.a, done.result.cookies, account.email)).toBe(true);
  });
});

describe("POST /v1/login with login_method oauth_google and oauth_github", () => {
  const fabrikam = () => process.env.E2E_OAUTH_HOSTS_SITE_URL!;
  const fabrikamAccount = async (cookies: Array<{ name: string; value: string }>) => {
    const res = await fetch(`${fabrikam()}/account`, {
      headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
      redirect: "manual",
    });
    return res.status === 200 ? await res.text() : "";
  };

  it("signs in with Google and with GitHub on a site that offers both; the answer names the provider's origin", async () => {
    const google = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${fabrikam()}/login`,
        login_method: "oauth_google",
        cred: { email: "agent@gmail.test", password: "google-password" },
        useCache: false,
      },
    });
    expect(google.status).toBe(200);
    expect(google.body.origins).toContain("https://accounts.google.com");
    expect(await fabrikamAccount(google.body.cookies)).toContain("agent@gmail.test");

    const github = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${fabrikam()}/login`,
        login_method: "oauth_github",
        cred: { username: "agent-gh", password: "github-password" },
        useCache: false,
      },
    });
    expect(github.status).toBe(200);
    expect(github.body.origins).toContain("https://github.com");
    expect(await fabrikamAccount(github.body.cookies)).toContain("agent@github.test");
  });
});

describe("POST /v1/signup with signup_method oauth", () => {
  it("signs up through the provider, fills the site's username and terms, and stores a credential that refresh uses", async () => {
    // A provider account the site does not know yet.
    const account = { email: `e2e-oauth-signup-${Date.now()}@acme.test`, password: "acme-signup-e2e" };
    await fetch(`${oauth.issuer}/__fixture/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(account),
    });
    const username = `e2e${Date.now() % 1_000_000}`;
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        domain: `${oauth.sites.b}/signup`,
        signup_method: "oauth",
        cred: { provider: "Acme ID", email: account.email, password: account.password, username },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.account).toEqual({ email: account.email, username, passwordGenerated: false });
    expect(await opensAccount(oauth.sites.b, res.body.cookies, account.email)).toBe(true);
    const accounts = (await (await fetch(`${oauth.sites.b}/__fixture/accounts`)).json()) as {
      accounts: Array<{ username: string; email: string }>;
    };
    expect(accounts.accounts).toContainEqual(expect.objectContaining({ username, email: account.email }));

    // The stored credential logs in again through the provider.
    const refreshed = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { credentialId: res.body.credentialId },
    });
    expect(refreshed.status).toBe(200);
    expect(await opensAccount(oauth.sites.b, refreshed.body.cookies, account.email)).toBe(true);
    // …and a caller's OAuth login of that account, on the login page the signup page links to, is served its cached session.
    const login = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${oauth.sites.b}/login`,
        login_method: "oauth",
        cred: { provider: "Acme ID", email: account.email, password: account.password },
      },
    });
    expect([login.status, login.headers.get("x-auth-cache")]).toEqual([200, "hit"]);
  });
});
