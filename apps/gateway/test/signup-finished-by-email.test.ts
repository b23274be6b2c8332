import {
  call,
  closeDatabase,
  database,
  expectSignedIn,
  expireSiteSessions,
  newTenant,
  siteAccounts,
  sitesUrl,
} from "@authsvc/devstack";

let tenant: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  tenant = await newTenant("Signup by email org");
});
afterAll(() => closeDatabase());

const signupAt = (page: string, body: Record<string, unknown>) =>
  call("POST", "/v1/signup", {
    key: tenant.key,
    body: { signup_method: "email", domain: `${sitesUrl()}/cases/${page}/signup`, ...body },
  });

async function newMailbox(): Promise<string> {
  const res = await call("POST", "/v1/mailboxes", { key: tenant.key, body: {} });
  expect(res.status).toBe(201);
  return res.body.address as string;
}

const deliver = (address: string, delivery: "lost" | "expired") =>
  fetch(`${sitesUrl()}/__fixture/deliveries`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ address, delivery }),
  });

/** The stored password is the account's: refresh logs in with it once the site ended the session. */
async function expectStoredPasswordWorks(page: string, credentialId: string, email: string): Promise<string> {
  const secret = await database().credentials.secret(tenant.orgId, credentialId);
  expect(await expireSiteSessions(email)).toBeGreaterThan(0);
  const refreshed = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });
  expect(refreshed.status).toBe(200);
  await expectSignedIn(page, refreshed.body.cookies, email);
  return secret!.password!;
}

describe("POST /v1/signup: sites that finish the signup by email", () => {
  it("opens the mailed set-password link, keeps the strong password the site filled in, and logs in", async () => {
    const res = await signupAt("signup-set-password", { allocateMailbox: true });
    expect(res.status).toBe(201);
    const email = res.body.account.email as string;
    expect(res.body.account).toMatchObject({ email, username: expect.any(String), passwordGenerated: true });
    await expectSignedIn("signup-set-password", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-set-password", username: res.body.account.username, confirmed: true }),
    ]);
    expect(await expectStoredPasswordWorks("signup-set-password", res.body.credentialId, email)).toMatch(
      /^[A-Za-z0-9_-]{24}$/,
    );
  });

  it("sets the caller's password on an empty new-password page and logs in with it", async () => {
    const res = await signupAt("signup-new-password", {
      allocateMailbox: true,
      cred: { password: "chosen-password-42" },
    });
    expect(res.status).toBe(201);
    const email = res.body.account.email as string;
    expect(res.body.account.passwordGenerated).toBe(false);
    await expectSignedIn("signup-new-password", res.body.cookies, email);
    expect(await expectStoredPasswordWorks("signup-new-password", res.body.credentialId, email)).toBe(
      "chosen-password-42",
    );
  });

  it("generates a password to the new-password page's stated rules", async () => {
    const res = await signupAt("signup-new-password", { allocateMailbox: true });
    expect(res.status).toBe(201);
    const email = res.body.account.email as string;
    expect(await expectStoredPasswordWorks("signup-new-password", res.body.credentialId, email)).toMatch(
      /^(?=.*\d).{10,}$/,
    );
  });

  it("logs in with the password the site mailed, sets a new one where the site demands it, and stores that", async () => {
    const res = await signupAt("signup-mailed-password", { allocateMailbox: true });
    expect(res.status).toBe(201);
    const email = res.body.account.email as string;
    expect(res.body.account).toMatchObject({ email, passwordGenerated: true });
    await expectSignedIn("signup-mailed-password", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-mailed-password", confirmed: true }),
    ]);
    // The mailed temporary password (10 characters) no longer works: the stored one is the generated new one.
    expect(await expectStoredPasswordWorks("signup-mailed-password", res.body.credentialId, email)).toHaveLength(20);
  });

  it("signs in with the login name a wiki assigned in its base64 multipart mail, not with the email", async () => {
    const res = await signupAt("signup-wiki-password", { allocateMailbox: true });
    expect([res.status, res.body.error?.message]).toEqual([201, undefined]);
    const { email, username } = res.body.account as { email: string; username: string };
    // The wiki capitalized the username it was given; that is the name it logs in with.
    expect(username).toMatch(/^[A-Z]/);
    await expectSignedIn("signup-wiki-password", res.body.cookies, username);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-wiki-password", username, confirmed: true }),
    ]);
    const credential = await call("GET", `/v1/credentials/${res.body.credentialId}`, { key: tenant.key });
    expect(credential.body).toMatchObject({ username });
  });

  it("keeps the account as pending_verification when the set-password mail never comes", async () => {
    const email = await newMailbox();
    await deliver(email, "lost");
    const res = await signupAt("signup-set-password", { cred: { email } });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_pending"]);
    expect(res.body.error.message).toContain(
      `no email with the account's password or a link to set it arrived at ${email}`,
    );
    const credential = await call("GET", `/v1/credentials/${res.body.error.credentialId}`, { key: tenant.key });
    expect(credential.body).toMatchObject({ username: email, status: "pending_verification" });
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: false })]);
  });

  it("ends verification_failed when the site refuses its own set-password link", async () => {
    const email = await newMailbox();
    await deliver(email, "expired");
    const res = await signupAt("signup-set-password", { cred: { email } });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_failed"]);
    expect(res.body.error.message).toContain("Your password reset link appears to be invalid.");
    expect(res.body.error.credentialId).toMatch(/^cred_/);
  });
});
