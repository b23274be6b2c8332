import {
  call,
  closeDatabase,
  expectSignedIn,
  expireSiteSessions,
  namedSitesUrl,
  newTenant,
  siteAccounts,
  sitesUrl,
  waitFor,
} from "@authsvc/devstack";

let tenant: Awaited<ReturnType<typeof newTenant>>;
let forwarding: { id: string; address: string };

beforeAll(async () => {
  tenant = await newTenant("Verify org");
  forwarding = (await call("GET", "/v1/mailboxes/forwarding", { key: tenant.key })).body;
});
afterAll(() => closeDatabase());

const fixture = (path: string, body: unknown) =>
  fetch(`${sitesUrl()}/__fixture/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

let seq = 0;
/**
 * The agent's own address (a Gmail-like host forwarding to the org's forwarding inbox), whose site mail
 * arrives `delivery`: late (held until `forwardedMail` releases it, after the signup stopped waiting) or never.
 */
async function ownAddress(delivery: "late" | "lost"): Promise<string> {
  const address = `verify${++seq}-${process.pid}-${Date.now().toString(36)}@agents.example`;
  expect((await fixture("mail-forwarding", { address, forwardTo: forwarding.address })).status).toBe(200);
  expect((await fixture("deliveries", { address, delivery })).status).toBe(204);
  return address;
}

/**
 * A signup the site wants confirmed, left pending because the mail came too late (or never): its credential.
 * On the sites under their host name, whose mail is DKIM-signed: only such mail counts in a forwarding inbox.
 */
async function pendingSignup(page: string, email: string): Promise<string> {
  const res = await call("POST", "/v1/signup", {
    key: tenant.key,
    body: { signup_method: "email", domain: `${namedSitesUrl()}/cases/${page}/signup`, cred: { email } },
  });
  expect([res.status, res.body.error?.code]).toEqual([422, "verification_pending"]);
  return res.body.error.credentialId as string;
}

/** The site's mail to a `late` address, released now, once it reached the forwarding inbox, as the messages endpoint shows it. */
async function forwardedMail(email: string): Promise<{ code: string | null; link: string | null }> {
  expect(await (await fixture("deliveries/release", { address: email })).json()).toEqual({ released: 1 });
  return waitFor(`the forwarded mail for ${email}`, async () => {
    const { messages } = (await call("GET", `/v1/mailboxes/${forwarding.id}/messages?limit=100`, { key: tenant.key }))
      .body;
    return messages.find((m: any) => m.originalRecipients.includes(email) && (m.code || m.link));
  });
}

const verify = (credentialId: string, body: unknown) =>
  call("POST", `/v1/credentials/${credentialId}/verify`, { key: tenant.key, body });
const credential = async (id: string) => (await call("GET", `/v1/credentials/${id}`, { key: tenant.key })).body;

describe("POST /v1/credentials/{id}/verify", () => {
  it("opens the confirmation link the caller read, signs in, and the credential becomes active", async () => {
    const email = await ownAddress("late");
    const id = await pendingSignup("signup-link", email);
    expect(await credential(id)).toMatchObject({ status: "pending_verification" });
    const { link } = await forwardedMail(email);
    const res = await verify(id, { link });
    expect(res.status).toBe(200);
    expect(res.body.credentialId).toBe(id);
    await expectSignedIn("signup-link", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: true })]);
    expect(await credential(id)).toMatchObject({ status: "active", lastError: null });
    // Confirmed and signed in: nothing is left to confirm, and refresh is the way to sign in again.
    const again = await verify(id, {});
    expect([again.status, again.body.error.code]).toEqual([409, "conflict"]);
    expect((await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId: id } })).status).toBe(200);
  });

  it("with an empty body, uses the confirmation link that reached the forwarding inbox since the signup", async () => {
    const email = await ownAddress("late");
    const id = await pendingSignup("signup-link", email);
    await forwardedMail(email);
    const res = await verify(id, {});
    expect(res.status).toBe(200);
    await expectSignedIn("signup-link", res.body.cookies, email);
    expect(await credential(id)).toMatchObject({ status: "active" });
  });

  it("types the confirmation code where the site asks for it after the password", async () => {
    const email = await ownAddress("late");
    const id = await pendingSignup("signup-code", email);
    const { code } = await forwardedMail(email);
    expect(code).toMatch(/^\d{6}$/);
    const res = await verify(id, { code });
    expect(res.status).toBe(200);
    await expectSignedIn("signup-code", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: true })]);
  });

  it("ends verification_failed for a link the site refuses, verification_pending while no mail came, and the account stays unconfirmed", async () => {
    const email = await ownAddress("lost");
    const id = await pendingSignup("signup-link", email);
    const waiting = await verify(id, {});
    expect([waiting.status, waiting.body.error?.code]).toEqual([422, "verification_pending"]);
    expect(await credential(id)).toMatchObject({ status: "pending_verification" });
    const refused = await verify(id, { link: `${namedSitesUrl()}/cases/signup-link/confirm?token=not-a-token` });
    expect([refused.status, refused.body.error?.code]).toEqual([422, "verification_failed"]);
    expect(refused.body.error.message).toContain("This confirmation link is invalid or has already been used.");
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: false })]);
    expect(await credential(id)).toMatchObject({ status: "pending", lastError: "verification_failed" });
  });

  it("refuses what it cannot take before any browser runs", async () => {
    const email = await ownAddress("lost");
    const id = await pendingSignup("signup-link", email);
    const both = await verify(id, { link: `${sitesUrl()}/x`, code: "123456" });
    expect([both.status, both.body.error.code]).toEqual([400, "invalid_request"]);
    expect((await verify(id, { code: "12 34" })).status).toBe(400);
    const metadata = await verify(id, { link: "http://169.254.169.254/latest/meta-data/" });
    expect([metadata.status, metadata.body.error.code]).toEqual([422, "target_not_allowed"]);
    expect((await verify("cred_0000000000000000000000", {})).status).toBe(404);
    const other = await newTenant("Not the verify org");
    expect((await call("POST", `/v1/credentials/${id}/verify`, { key: other.key, body: {} })).status).toBe(404);
  });
});

describe("POST /v1/credentials/{id}/verify: accounts the site made without a password", () => {
  const refresh = (credentialId: string) => call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });

  /** Signed in once the site ended the session: the stored password is the account's. */
  async function expectRefreshSignsIn(page: string, id: string, email: string): Promise<void> {
    expect(await expireSiteSessions(email)).toBeGreaterThan(0);
    const again = await refresh(id);
    expect(again.status).toBe(200);
    await expectSignedIn(page, again.body.cookies, email);
  }

  it("sets a password on the page the mailed set-password link opens, signs in, and stores it", async () => {
    const email = await ownAddress("late");
    const id = await pendingSignup("signup-new-password", email);
    // No password is known yet: a refresh would type none, so it is refused before any browser runs.
    const early = await refresh(id);
    expect([early.status, early.body.error?.code]).toEqual([422, "no_stored_secret"]);
    expect(early.body.error.message).toContain(`/v1/credentials/${id}/verify`);
    const { link } = await forwardedMail(email);
    const withCode = await verify(id, { code: "123456" });
    expect([withCode.status, withCode.body.error?.code]).toEqual([409, "conflict"]);
    const res = await verify(id, { link });
    expect(res.status).toBe(200);
    expect(res.body.credentialId).toBe(id);
    await expectSignedIn("signup-new-password", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: true })]);
    expect(await credential(id)).toMatchObject({ status: "active", lastError: null });
    await expectRefreshSignsIn("signup-new-password", id, email);
  });

  it("with an empty body, reads the password the site mailed from the forwarding inbox", async () => {
    const email = await ownAddress("late");
    const id = await pendingSignup("signup-mailed-password", email);
    await forwardedMail(email);
    const res = await verify(id, {});
    expect(res.status).toBe(200);
    await expectSignedIn("signup-mailed-password", res.body.cookies, email);
    expect(await credential(id)).toMatchObject({ status: "active" });
    // The site demanded a new password at the first login: the stored one is that, and it signs in.
    await expectRefreshSignsIn("signup-mailed-password", id, email);
  });

  it("ends verification_failed when the link leads to no page to set a password", async () => {
    const email = await ownAddress("lost");
    const id = await pendingSignup("signup-new-password", email);
    const res = await verify(id, { link: `${namedSitesUrl()}/cases/signup-new-password/login` });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_failed"]);
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: false })]);
  });
});
