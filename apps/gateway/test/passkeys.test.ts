import { generateKeyPairSync, randomBytes } from "node:crypto";
import { Client } from "pg";
import { call, closeDatabase, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";

// Passkeys for agents, through the HTTP API (issue 29): a credential that signed in with its password adds a
// passkey on the site's settings, then signs in with it and no password; the site's counter grows.
let tenant: Awaited<ReturnType<typeof newTenant>>;
beforeAll(async () => {
  tenant = await newTenant("Passkey org");
});
afterAll(() => closeDatabase());

// A relying party is a domain name, never an IP address: the site is visited as passkeys.localhost.
const site = (path: string) => `${sitesUrl().replace("127.0.0.1", "passkeys.localhost")}${path}`;
const LOGIN = "/cases/passkey-site/login";
const fixture = async (username: string) =>
  (await (await fetch(`${sitesUrl()}/__fixture/passkey-site/${username}`)).json()) as {
    passwordSubmissions: number;
    passkeySignIns: number;
    refusedAssertions: number;
    passkeys: Array<{ id: string; counter: number }>;
  };
const cookieHeader = (cookies: Array<{ name: string; value: string }>) =>
  cookies.map((c) => `${c.name}=${c.value}`).join("; ");
/** Whether the session's cookies open the site's signed-in page (asked at the sites' address: this process does not resolve passkeys.localhost). */
async function signedIn(cookies: Array<{ name: string; value: string }>): Promise<boolean> {
  const res = await fetch(`${sitesUrl()}/cases/passkey-site/account`, {
    headers: { cookie: cookieHeader(cookies) },
    redirect: "manual",
  });
  return res.status === 200 && (await res.text()).includes("Welcome");
}

/** The id of the org's credential of this username. */
async function idOf(username: string): Promise<string> {
  const listed = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials as Array<{
    username: string;
    credentialId: string;
  }>;
  return listed.find((c) => c.username === username)!.credentialId;
}

/** A user of the passkey site whose credential signed in once with its password. */
async function credentialOf(): Promise<{ username: string; credentialId: string }> {
  const user = await newSiteUser("pk-Rt5Wq8Zm2Lc7");
  const login = await call("POST", "/v1/login", {
    key: tenant.key,
    body: { domain: site(LOGIN), login_method: "password", cred: user },
  });
  expect(login.status).toBe(200);
  return { username: user.username, credentialId: await idOf(user.username) };
}

describe("passkeys for agents", () => {
  it("adds a passkey, then logs in and refreshes with it, sending no password; the site's counter grows", async () => {
    const { username, credentialId } = await credentialOf();
    expect(credentialId).toMatch(/^cred_/);

    const enrol = await call("POST", `/v1/credentials/${credentialId}/passkeys`, { key: tenant.key, body: {} });
    expect(enrol.status).toBe(201);
    expect(enrol.body.passkey).toEqual({
      type: "passkey",
      passkeyId: expect.stringMatching(/^pk_/),
      rpId: "passkeys.localhost",
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    expect(await signedIn(enrol.body.cookies)).toBe(true);
    // Never returned: no key, no credential id, no user handle in the answer.
    expect(Object.keys(enrol.body.passkey).sort()).toEqual(["createdAt", "lastUsedAt", "passkeyId", "rpId", "type"]);
    const enrolled = await fixture(username);
    expect(enrolled.passkeys).toHaveLength(1);
    expect(enrolled.passwordSubmissions).toBe(2); // the first login, and the enrolment's sign-in
    expect(enrolled.passkeySignIns).toBe(1); // the new passkey signed in once before it was reported

    const credential = (await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body;
    expect(credential.methods).toEqual([{ type: "password" }, enrol.body.passkey]);

    // A passkey login names the account, and no password.
    const login = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: site(LOGIN), login_method: "passkey", cred: { username }, useCache: false },
    });
    expect(login.status).toBe(200);
    expect(await signedIn(login.body.cookies)).toBe(true);
    const afterLogin = await fixture(username);
    expect(afterLogin).toMatchObject({ passwordSubmissions: 2, passkeySignIns: 2 });
    expect(afterLogin.passkeys[0]!.counter).toBeGreaterThan(enrolled.passkeys[0]!.counter);

    // A refresh of a credential that holds a passkey uses it, from the counter the last sign-in left.
    const refresh = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });
    expect(refresh.status).toBe(200);
    expect(await signedIn(refresh.body.cookies)).toBe(true);
    const afterRefresh = await fixture(username);
    expect(afterRefresh).toMatchObject({ passwordSubmissions: 2, passkeySignIns: 3, refusedAssertions: 0 });
    expect(afterRefresh.passkeys[0]!.counter).toBeGreaterThan(afterLogin.passkeys[0]!.counter);
    const used = (await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body.methods[1];
    expect(used.lastUsedAt).toEqual(expect.any(String));

    // Forgotten here: the next passkey login has none of this site to offer (the site still lists it).
    const other = await newTenant("Other passkey org");
    expect(
      (await call("DELETE", `/v1/credentials/${credentialId}/passkeys/${used.passkeyId}`, { key: other.key })).status,
    ).toBe(404);
    expect(
      (await call("DELETE", `/v1/credentials/${credentialId}/passkeys/${used.passkeyId}`, { key: tenant.key })).status,
    ).toBe(204);
    expect(
      (await call("DELETE", `/v1/credentials/${credentialId}/passkeys/${used.passkeyId}`, { key: tenant.key })).status,
    ).toBe(404);
    expect((await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body.methods).toEqual([
      { type: "password" },
    ]);
    const none = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: site(LOGIN), login_method: "passkey", cred: { username }, useCache: false },
    });
    expect([none.status, none.body.error.code]).toEqual([422, "passkey_not_offered"]);
    expect(await fixture(username)).toMatchObject({ passwordSubmissions: 2, passkeySignIns: 3 });
    // The password was kept through the passkey sign-ins: a refresh signs in with it again.
    const byPassword = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });
    expect(byPassword.status).toBe(200);
    expect((await fixture(username)).passwordSubmissions).toBe(3);
  });

  it("answers passkey_rejected when the site no longer knows the passkey, and passkey_not_offered where it offers none", async () => {
    const { username, credentialId } = await credentialOf();
    expect(
      (
        await call("POST", `/v1/credentials/${credentialId}/passkeys`, {
          key: tenant.key,
          body: { settingsUrl: site("/cases/passkey-site/settings/security") },
        })
      ).status,
    ).toBe(201);
    await fetch(`${sitesUrl()}/__fixture/passkey-site/${username}/forget-passkeys`, { method: "POST" });
    const refused = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: site(LOGIN), login_method: "passkey", cred: { username }, useCache: false },
    });
    expect([refused.status, refused.body.error.code]).toEqual([422, "passkey_rejected"]);

    // A site whose account pages offer no passkey: nothing added, the credential lists none.
    const user = await newSiteUser("pk-Hn3Vx6Qd9Ls2");
    expect(
      (
        await call("POST", "/v1/login", {
          key: tenant.key,
          body: { domain: `${sitesUrl()}/classic/login`, login_method: "password", cred: user },
        })
      ).status,
    ).toBe(200);
    const classicId = await idOf(user.username);
    const notOffered = await call("POST", `/v1/credentials/${classicId}/passkeys`, { key: tenant.key, body: {} });
    expect([notOffered.status, notOffered.body.error.code]).toEqual([422, "passkey_not_offered"]);
    expect((await call("GET", `/v1/credentials/${classicId}`, { key: tenant.key })).body).toMatchObject({
      methods: [{ type: "password" }],
      lastError: null,
    });
  });

  it("reports no passkey the site said it added but does not sign in with, and the credential keeps its standing", async () => {
    const { username, credentialId } = await credentialOf();
    await fetch(`${sitesUrl()}/__fixture/passkey-site/${username}/hold-new-passkeys`, { method: "POST" });
    const enrol = await call("POST", `/v1/credentials/${credentialId}/passkeys`, { key: tenant.key, body: {} });
    expect([enrol.status, enrol.body.error.code]).toEqual([422, "passkey_rejected"]);
    expect(await fixture(username)).toMatchObject({ passkeys: [], passkeySignIns: 0 });
    const credential = (await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body;
    expect(credential.methods).toEqual([{ type: "password" }]);
    expect(credential.lastError).toBeNull();
    // Its password still signs in.
    expect((await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } })).status).toBe(200);
  });

  it("refuses what a passkey request cannot carry, before any job", async () => {
    const { credentialId } = await credentialOf();
    const withPassword = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: site(LOGIN), login_method: "passkey", cred: { username: "someone", password: "not-sent" } },
    });
    expect([withPassword.status, withPassword.body.error.code, withPassword.body.error.details?.[0]?.field]).toEqual([
      400,
      "invalid_request",
      "/cred/password",
    ]);
    const elsewhere = await call("POST", `/v1/credentials/${credentialId}/passkeys`, {
      key: tenant.key,
      body: { settingsUrl: `${sitesUrl()}/classic/account` },
    });
    expect([elsewhere.status, elsewhere.body.error.details?.[0]?.field]).toEqual([400, "/settingsUrl"]);
    expect(
      (
        await call("POST", `/v1/credentials/${credentialId}/passkeys`, {
          key: tenant.key,
          body: { settingsUrl: "ftp://x" },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call("POST", "/v1/credentials/cred_0000000000000000000000/passkeys", { key: tenant.key, body: {} }))
        .status,
    ).toBe(404);
    const oauthSignup = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "oauth",
        provider: "github",
        domain: site("/cases/passkey-site/signup"),
        cred: { email: "a@b.example", password: "x" },
        createPasskey: true,
      },
    });
    expect([oauthSignup.status, oauthSignup.body.error.details?.[0]?.field]).toEqual([400, "/createPasskey"]);
  });
});

describe("a passkey for a credential that signs in through a provider", () => {
  it("adds one after the provider's sign-in, then signs in with it: no provider password sent, the session opens the site", async () => {
    const oauth = (await (await fetch(`${sitesUrl()}/__fixture/oauth`)).json()) as {
      issuer: string;
      sites: { a: string };
    };
    const post = (url: string, body: unknown) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const account = { email: `pk-oauth-${Date.now()}@acme.test`, password: "acme-pk-password" };
    expect((await post(`${oauth.issuer}/__fixture/users`, account)).status).toBe(200);
    const { username: siteUser } = (await (
      await post(`${oauth.sites.a}/__fixture/links`, { email: account.email })
    ).json()) as { username: string };
    const providerPasswords = async () =>
      (
        (await (await fetch(`${oauth.issuer}/__fixture/users/${encodeURIComponent(account.email)}`)).json()) as {
          passwordSubmissions: number;
        }
      ).passwordSubmissions;
    const sitePasskeys = async () =>
      (await (await fetch(`${oauth.sites.a}/__fixture/passkeys/${siteUser}`)).json()) as {
        passkeySignIns: number;
        passkeys: unknown[];
      };
    // The site as a relying party can know it: by host name (localhost), its login page offering passkeys too.
    const loginPage = `${oauth.sites.a.replace("127.0.0.1", "localhost")}/login?passkeys=1`;
    const first = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: loginPage,
        login_method: "oauth",
        cred: { provider: "Acme ID", email: account.email, password: account.password },
      },
    });
    expect(first.status).toBe(200);
    const credentialId = await idOf(account.email);

    // Its account page links to the security settings, where "Add a passkey" is.
    const enrol = await call("POST", `/v1/credentials/${credentialId}/passkeys`, { key: tenant.key, body: {} });
    expect(enrol.status).toBe(201);
    expect(enrol.body.passkey).toMatchObject({ type: "passkey", rpId: "localhost" });
    expect(await sitePasskeys()).toMatchObject({ passkeys: [expect.anything()], passkeySignIns: 1 });
    const credential = (await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body;
    expect(credential.methods.map((m: { type: string }) => m.type)).toEqual(["oauth", "passkey"]);

    const sentBefore = await providerPasswords();
    const login = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: loginPage, login_method: "passkey", cred: { username: account.email }, useCache: false },
    });
    expect(login.status).toBe(200);
    expect(await providerPasswords()).toBe(sentBefore);
    expect((await sitePasskeys()).passkeySignIns).toBe(2);
    const header = (login.body.cookies as Array<{ name: string; value: string }>)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    const opened = await fetch(`${oauth.sites.a}/account`, { headers: { cookie: header }, redirect: "manual" });
    expect([opened.status, (await opened.text()).includes(account.email)]).toEqual([200, true]);
  });
});

describe("a passkey made at signup", () => {
  it("adds the passkey the site offers after the signup (createPasskey), and the new credential signs in with it", async () => {
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "email",
        domain: site("/cases/passkey-site/signup"),
        allocateMailbox: true,
        createPasskey: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.passkey).toEqual({
      type: "passkey",
      passkeyId: expect.stringMatching(/^pk_/),
      rpId: "passkeys.localhost",
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const email = res.body.account.email as string;
    expect((await fixture(email)).passkeys).toHaveLength(1);
    expect((await call("GET", `/v1/credentials/${res.body.credentialId}`, { key: tenant.key })).body.methods).toEqual([
      { type: "password" },
      res.body.passkey,
    ]);

    const login = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: site(LOGIN), login_method: "passkey", cred: { username: email }, useCache: false },
    });
    expect(login.status).toBe(200);
    expect(await signedIn(login.body.cookies)).toBe(true);
    expect(await fixture(email)).toMatchObject({ passwordSubmissions: 0, passkeySignIns: 2 }); // the confirming sign-in, this login

    // Without createPasskey, the offer is left alone.
    const plain = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: { signup_method: "email", domain: site("/cases/passkey-site/signup"), allocateMailbox: true },
    });
    expect(plain.status).toBe(201);
    expect(plain.body.passkey).toBeUndefined();
    expect((await fixture(plain.body.account.email)).passkeys).toEqual([]);
  });
});

describe("a passkey the caller brings (import)", () => {
  /** A passkey made on another device: the site knows its public key; the test holds its private key. */
  async function passkeyElsewhere(username: string, algorithm: "P-256" | "Ed25519" = "P-256") {
    const { privateKey, publicKey } =
      algorithm === "P-256" ? generateKeyPairSync("ec", { namedCurve: "P-256" }) : generateKeyPairSync("ed25519");
    const credentialId = randomBytes(32);
    const registered = await fetch(`${sitesUrl()}/__fixture/passkey-site/${username}/passkeys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        credentialId: credentialId.toString("base64url"),
        publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64url"),
      }),
    });
    expect(registered.status).toBe(201);
    const pkcs8 = privateKey.export({ type: "pkcs8", format: "der" });
    return { credentialId, pkcs8, d: privateKey.export({ format: "jwk" }).d!, userHandle: Buffer.from(username) };
  }
  const passkeyLogin = (username: string) =>
    call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: site(LOGIN), login_method: "passkey", cred: { username }, useCache: false },
    });

  /** Every form the passkey's secrets could be stored in, none of which a row may hold. */
  function plainForms(held: Awaited<ReturnType<typeof passkeyElsewhere>>): string[] {
    const forms = (b: Buffer) => [b.toString("base64"), b.toString("base64url"), b.toString("hex")];
    return [
      ...forms(held.pkcs8),
      ...forms(Buffer.from(held.d, "base64url")),
      ...forms(held.credentialId),
      held.userHandle.toString("base64url"),
    ];
  }
  async function rowsOf(credentialId: string): Promise<string> {
    const pg = new Client({ connectionString: process.env.DATABASE_URL });
    await pg.connect();
    try {
      const passkeys = await pg.query(
        "SELECT row_to_json(t)::text AS j FROM credential_passkeys t WHERE credential_id = $1",
        [credentialId],
      );
      const jobs = await pg.query("SELECT row_to_json(t)::text AS j FROM auth_jobs t WHERE credential_id = $1", [
        credentialId,
      ]);
      expect(passkeys.rows).toHaveLength(1);
      return [...passkeys.rows, ...jobs.rows].map((r) => r.j as string).join("\n");
    } finally {
      await pg.end();
    }
  }

  it("imports the fields of a passkey made elsewhere, sealed at rest; login_method passkey signs in with it, no password sent", async () => {
    const { username, credentialId } = await credentialOf();
    const held = await passkeyElsewhere(username);
    const body = {
      import: {
        credentialId: held.credentialId.toString("base64url"),
        privateKey: held.pkcs8.toString("base64url"),
        rpId: "passkeys.localhost",
        userHandle: held.userHandle.toString("base64url"),
      },
    };
    const once = { key: tenant.key, body, headers: { "idempotency-key": `import-${credentialId}` } };
    const imported = await call("POST", `/v1/credentials/${credentialId}/passkeys`, once);
    expect(imported.status).toBe(201);
    expect(imported.headers.get("location")).toBe(`/v1/credentials/${credentialId}`);
    expect(imported.body).toEqual({
      passkey: {
        type: "passkey",
        passkeyId: expect.stringMatching(/^pk_/),
        rpId: "passkeys.localhost",
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
      credentialId,
    });
    expect((await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body.methods).toEqual([
      { type: "password" },
      imported.body.passkey,
    ]);
    // No browser ran for it: the site saw nothing.
    expect(await fixture(username)).toMatchObject({ passwordSubmissions: 1, passkeySignIns: 0 });

    const login = await passkeyLogin(username);
    expect(login.status).toBe(200);
    expect(await signedIn(login.body.cookies)).toBe(true);
    const after = await fixture(username);
    expect(after).toMatchObject({ passwordSubmissions: 1, passkeySignIns: 1, refusedAssertions: 0 });
    expect(after.passkeys[0]!.counter).toBeGreaterThan(0);

    // A retry with the first request's Idempotency-Key gets its answer again; without one, the same passkey
    // again is 409, naming the one that holds it (its counter is not reset).
    const replayed = await call("POST", `/v1/credentials/${credentialId}/passkeys`, once);
    expect([replayed.status, replayed.headers.get("idempotent-replayed"), replayed.body]).toEqual([
      201,
      "true",
      imported.body,
    ]);
    const again = await call("POST", `/v1/credentials/${credentialId}/passkeys`, { key: tenant.key, body });
    expect([again.status, again.body.error.code]).toEqual([409, "conflict"]);
    expect(again.body.error.message).toContain(imported.body.passkey.passkeyId);
    // So is another passkey of the same account of the site (one user handle): the sign-in loads them into one authenticator, which holds one per account.
    const sameAccount = await call("POST", `/v1/credentials/${credentialId}/passkeys`, {
      key: tenant.key,
      body: { import: { ...body.import, credentialId: randomBytes(32).toString("base64url") } },
    });
    expect([sameAccount.status, sameAccount.body.error.code]).toEqual([409, "conflict"]);
    // Another organization's credential is not found.
    const other = await newTenant("Other import org");
    expect((await call("POST", `/v1/credentials/${credentialId}/passkeys`, { key: other.key, body })).status).toBe(404);

    // At rest: sealed. No form of the private key, the credential id or the user handle in its row or the credential's jobs.
    const rows = await rowsOf(credentialId);
    for (const plain of plainForms(held)) expect(rows).not.toContain(plain);
  });

  it("imports a Credential Exchange Format item's passkey (an EdDSA one), and signs in with it", async () => {
    const { username, credentialId } = await credentialOf();
    const held = await passkeyElsewhere(username, "Ed25519");
    const passkey = {
      type: "passkey",
      credentialId: held.credentialId.toString("base64url"),
      rpId: "passkeys.localhost",
      username,
      userDisplayName: username,
      userHandle: held.userHandle.toString("base64url"),
      key: held.pkcs8.toString("base64url"),
    };
    const item = {
      id: randomBytes(16).toString("base64url"),
      creationAt: 1764633600,
      title: "Passkey Site",
      scope: { urls: [site(LOGIN)] },
      credentials: [passkey],
    };
    const imported = await call("POST", `/v1/credentials/${credentialId}/passkeys`, {
      key: tenant.key,
      body: { import: { cxf: item } },
    });
    expect(imported.status).toBe(201);
    expect(imported.body.passkey).toMatchObject({ type: "passkey", rpId: "passkeys.localhost", lastUsedAt: null });

    const login = await passkeyLogin(username);
    expect(login.status).toBe(200);
    expect(await signedIn(login.body.cookies)).toBe(true);
    expect(await fixture(username)).toMatchObject({ passwordSubmissions: 1, passkeySignIns: 1, refusedAssertions: 0 });
    const used = (await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body.methods[1];
    expect(used.lastUsedAt).toEqual(expect.any(String));
  });

  it("refuses a wrong relying party, a key the authenticator cannot sign with and unknown fields: 400 naming the field, never the key, nothing stored", async () => {
    const { username, credentialId } = await credentialOf();
    const held = await passkeyElsewhere(username);
    const fields = {
      credentialId: held.credentialId.toString("base64url"),
      privateKey: held.pkcs8.toString("base64url"),
      rpId: "passkeys.localhost",
      userHandle: held.userHandle.toString("base64url"),
    };
    const refused = async (body: unknown) => {
      const res = await call("POST", `/v1/credentials/${credentialId}/passkeys`, { key: tenant.key, body });
      expect([res.status, res.body.error.code]).toEqual([400, "invalid_request"]);
      const said = JSON.stringify(res.body);
      for (const plain of plainForms(held)) expect(said).not.toContain(plain);
      return (res.body.error.details as Array<{ field: string }>).map((d) => d.field);
    };
    expect(await refused({ import: { ...fields, rpId: "other.localhost" } })).toEqual(["/import/rpId"]);
    expect(await refused({ import: { ...fields, rpId: "localhost" } })).toEqual(["/import/rpId"]);
    const p384 = generateKeyPairSync("ec", { namedCurve: "P-384" })
      .privateKey.export({ type: "pkcs8", format: "der" })
      .toString("base64url");
    expect(await refused({ import: { ...fields, privateKey: p384 } })).toEqual(["/import/privateKey"]);
    expect(
      await refused({ import: { ...fields, privateKey: held.pkcs8.subarray(0, 60).toString("base64url") } }),
    ).toEqual(["/import/privateKey"]);
    const { d: _d, ...publicJwk } = {
      ...generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" }),
    };
    expect(await refused({ import: { ...fields, privateKey: publicJwk } })).toEqual(["/import/privateKey"]);
    expect(await refused({ import: { ...fields, counter: 3 } })).toEqual(["/import/counter"]);
    expect(await refused({ import: fields, settingsUrl: site("/cases/passkey-site/settings/security") })).toEqual([
      "/settingsUrl",
    ]);
    expect(
      await refused({
        import: {
          cxf: { type: "passkey", ...fields, key: fields.privateKey, privateKey: undefined, rpId: "other.localhost" },
        },
      }),
    ).toEqual(["/import/cxf/rpId"]);
    expect((await call("GET", `/v1/credentials/${credentialId}`, { key: tenant.key })).body.methods).toEqual([
      { type: "password" },
    ]);
  });
});
