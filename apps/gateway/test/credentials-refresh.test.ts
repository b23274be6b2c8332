import { newTotpSecret } from "@authsvc/crypto";
import { LOGIN_CASES } from "@authsvc/test-sites";
import {
  attempts,
  call,
  closeDatabase,
  expireSiteSessions,
  loginBody,
  newSiteUser,
  newTenant,
  sitesUrl,
} from "@authsvc/devstack";

let tenant: Awaited<ReturnType<typeof newTenant>>;
beforeAll(async () => {
  tenant = await newTenant("Credentials org");
});
afterAll(() => closeDatabase());

const cookieHeader = (cookies: Array<{ name: string; value: string }>) =>
  cookies.map((c) => `${c.name}=${c.value}`).join("; ");

/** Whether a session's cookies open the signed-in page of a site (the classic site unless told). */
async function signedIn(cookies: Array<{ name: string; value: string }>, path = "/classic/account"): Promise<boolean> {
  const res = await fetch(`${sitesUrl()}${path}`, { headers: { cookie: cookieHeader(cookies) }, redirect: "manual" });
  return res.status === 200 && (await res.text()).includes("Welcome");
}

describe("stored credentials", () => {
  it("lists the org's credentials with metadata only, and keeps them from other orgs", async () => {
    const user = await newSiteUser("listed-password-1");
    const login = await call("POST", "/v1/login", {
      key: tenant.key,
      body: loginBody("classic", user, { collectionId: "team-list" }),
    });
    expect(login.status).toBe(200);

    const list = await call("GET", "/v1/credentials", { key: tenant.key });
    expect(list.status).toBe(200);
    const mine = list.body.credentials.find((c: any) => c.username === user.username);
    expect(mine).toEqual({
      credentialId: expect.stringMatching(/^cred_/),
      site: sitesUrl(),
      loginPage: `${sitesUrl()}/classic/login`,
      loginUrl: `${sitesUrl()}/classic/login`,
      username: user.username,
      collectionId: "team-list",
      createdAt: expect.any(String),
      lastLoginAt: expect.any(String),
      status: "active",
      lastError: null,
      deviceRememberedAt: null,
      region: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(user.password);
    expect((await call("GET", `/v1/credentials/${mine.credentialId}`, { key: tenant.key })).body).toEqual({
      ...mine,
      methods: [{ type: "password" }],
    });

    const other = await newTenant("Other credentials org");
    expect((await call("GET", `/v1/credentials/${mine.credentialId}`, { key: other.key })).status).toBe(404);
    expect((await call("DELETE", `/v1/credentials/${mine.credentialId}`, { key: other.key })).status).toBe(404);
    expect(
      (await call("POST", "/v1/refresh", { key: other.key, body: { credentialId: mine.credentialId } })).status,
    ).toBe(404);
    expect((await call("GET", "/v1/credentials", { key: other.key })).body.credentials).toEqual([]);
    expect((await call("GET", "/v1/credentials/nope", { key: tenant.key })).status).toBe(404);
  });

  it("shows a credential that never logged in as pending with its last error, and refuses to refresh it", async () => {
    const user = await newSiteUser("never-worked-1");
    const failed = await call("POST", "/v1/login", {
      key: tenant.key,
      body: loginBody("classic", { ...user, password: "wrong" }),
    });
    expect(failed.body.error.code).toBe("invalid_credentials");
    const row = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials.find(
      (c: any) => c.username === user.username,
    );
    expect([row.status, row.lastError, row.lastLoginAt]).toEqual(["pending", "invalid_credentials", null]);
    const refresh = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId: row.credentialId } });
    expect([refresh.status, refresh.body.error.code]).toEqual([422, "no_stored_secret"]);
    expect(await attempts(user.username)).toEqual({ classic: 1 });
  });

  it("deletes a credential with its sessions: the next login is a fresh one", async () => {
    const user = await newSiteUser("deleted-password-1");
    const first = await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) });
    expect(first.headers.get("x-auth-cache")).toBe("miss");
    expect(
      (await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) })).headers.get(
        "x-auth-cache",
      ),
    ).toBe("hit");
    const id = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials.find(
      (c: any) => c.username === user.username,
    ).credentialId;
    expect((await call("DELETE", `/v1/credentials/${id}`, { key: tenant.key })).status).toBe(204);
    expect((await call("GET", `/v1/credentials/${id}`, { key: tenant.key })).status).toBe(404);
    expect(
      (await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) })).headers.get(
        "x-auth-cache",
      ),
    ).toBe("miss");
  });
});

describe("POST /v1/refresh", () => {
  it("logs in again with the stored secret after the site ended the session, and replaces the cached one", async () => {
    const user = await newSiteUser("refresh-password-1");
    const login = await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) });
    expect(await signedIn(login.body.cookies)).toBe(true);
    expect(await expireSiteSessions(user.username)).toBe(1);
    expect(await signedIn(login.body.cookies)).toBe(false);
    // The cache does not know the site ended it: it still serves the dead session.
    const cached = await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) });
    expect(cached.headers.get("x-auth-cache")).toBe("hit");

    const id = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials.find(
      (c: any) => c.username === user.username,
    ).credentialId;
    const refreshed = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId: id } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({
      credentialId: id,
      origins: [sitesUrl()],
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(new Date(refreshed.body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(refreshed.headers.get("x-job-id")).toMatch(/^job_/);
    expect(await signedIn(refreshed.body.cookies)).toBe(true);
    expect(JSON.stringify(refreshed.body)).not.toContain(user.password);

    // The next login gets the new session from the cache.
    const after = await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) });
    expect(after.headers.get("x-auth-cache")).toBe("hit");
    expect(after.body.cookies).toEqual(refreshed.body.cookies);
    expect(await attempts(user.username)).toEqual({ classic: 2 });
  });

  it("names a credential by domain, username and collection too, and answers its TOTP prompt again", async () => {
    const c = LOGIN_CASES.find((x) => x.name === "totp-split")!;
    const totpSecret = newTotpSecret();
    const user = await newSiteUser("refresh-totp-1", { email: true, totpSecret });
    const domain = c.url(sitesUrl());
    const login = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain, login_method: "totp", cred: { ...user, totpSecret }, collectionId: "team-totp" },
    });
    expect(login.status).toBe(200);
    await expireSiteSessions(user.username);

    const wrongCollection = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { domain, username: user.username },
    });
    expect(wrongCollection.status).toBe(404);
    const refreshed = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { domain, username: user.username, collectionId: "team-totp" },
    });
    expect(refreshed.status).toBe(200);
    expect(await signedIn(refreshed.body.cookies, "/cases/totp-split/account")).toBe(true);
  });

  it("answers 400 for a body that names no credential or names one twice", async () => {
    for (const body of [
      {},
      { username: "x" },
      { credentialId: "cred_0000000000000000000000", username: "x" },
      { credentialId: "nope" },
      { credentialId: "cred_0000000000000000000000", password: "x" },
    ]) {
      const res = await call("POST", "/v1/refresh", { key: tenant.key, body });
      expect([res.status, res.body.error.code]).toEqual([400, "invalid_request"]);
    }
    expect(
      (await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId: "cred_0000000000000000000000" } }))
        .status,
    ).toBe(404);
  });
});
