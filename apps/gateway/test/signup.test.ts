import {
  attempts,
  call,
  closeDatabase,
  database,
  expectSignedIn,
  expireSiteSessions,
  finishedJob,
  newSiteUser,
  newTenant,
  siteAccounts,
  sitesUrl,
} from "@authsvc/devstack";

const MAIL_DOMAIN = process.env.MAIL_DOMAIN!;
let tenant: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  tenant = await newTenant("Signup org");
});
afterAll(() => closeDatabase());

async function newMailbox(key = tenant.key): Promise<string> {
  const res = await call("POST", "/v1/mailboxes", { key, body: {} });
  expect(res.status).toBe(201);
  return res.body.address as string;
}

const signupAt = (
  page: string,
  body: Record<string, unknown>,
  key = tenant.key,
  headers: Record<string, string> = {},
) =>
  call("POST", "/v1/signup", {
    key,
    headers,
    body: { signup_method: "email", domain: `${sitesUrl()}/cases/${page}/signup`, ...body },
  });

async function invitation(email?: string): Promise<{ token: string; url: string }> {
  const res = await fetch(`${sitesUrl()}/__fixture/invitations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });
  return (await res.json()) as { token: string; url: string };
}

describe("POST /v1/signup: email confirmation", () => {
  it("creates the account, opens the emailed confirmation link, logs in, and stores the credential for refresh", async () => {
    const email = await newMailbox();
    const res = await signupAt("signup-link", { cred: { email, name: "Ada Lovelace" }, collectionId: "signups" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      credentialId: expect.stringMatching(/^cred_/),
      expiresAt: expect.any(String),
      account: { email, username: null, passwordGenerated: true },
      origins: [sitesUrl()],
    });
    expect(res.headers.get("location")).toBe(`/v1/credentials/${res.body.credentialId}`);
    const sid = res.body.cookies.find((c: any) => c.name === "signup_link_sid");
    expect(Math.abs(new Date(res.body.expiresAt).getTime() / 1000 - sid.expires)).toBeLessThan(1);
    await expectSignedIn("signup-link", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-link", name: "Ada Lovelace", confirmed: true, termsAccepted: true }),
    ]);

    // The credential: known by its email, logging in on the site's login page next time.
    const credential = await call("GET", `/v1/credentials/${res.body.credentialId}`, { key: tenant.key });
    expect(credential.body).toMatchObject({
      username: email,
      loginUrl: `${sitesUrl()}/cases/signup-link/login`,
      collectionId: "signups",
      status: "active",
    });

    // The generated password is stored encrypted, and refresh logs in with it once the site ended the session.
    const row = await database().prisma.credential.findUniqueOrThrow({
      where: { id: res.body.credentialId },
      omit: { secret: false },
    });
    const secret = await database().credentials.secret(tenant.orgId, res.body.credentialId);
    expect(secret!.password!.length).toBeGreaterThanOrEqual(12);
    expect(row.secret).not.toContain(secret!.password);
    expect(await expireSiteSessions(email)).toBeGreaterThan(0);
    const refreshed = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { credentialId: res.body.credentialId },
    });
    expect(refreshed.status).toBe(200);
    await expectSignedIn("signup-link", refreshed.body.cookies, email);
  });

  it("presses Confirm where the emailed link opens a page that asks for it (django-allauth), and signs in", async () => {
    const email = await newMailbox();
    const res = await signupAt("signup-confirm-button", { cred: { email } });
    expect([res.status, res.body.error?.message]).toEqual([201, undefined]);
    await expectSignedIn("signup-confirm-button", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-confirm-button", confirmed: true }),
    ]);
  });

  it("answers the emailed 6-digit code in a mailbox it allocated, and the site signs the account in", async () => {
    const res = await signupAt("signup-code", { allocateMailbox: true, cred: { name: "Grace Hopper" } });
    expect(res.status).toBe(201);
    const email = res.body.account.email as string;
    expect(email).toMatch(new RegExp(`^agent-[a-z0-9]{12}@${MAIL_DOMAIN.replace(/\./g, "\\.")}$`));
    await expectSignedIn("signup-code", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-code", name: "Grace Hopper", confirmed: true, newsletter: false }),
    ]);
    const mailboxes = (await call("GET", "/v1/mailboxes", { key: tenant.key })).body.mailboxes;
    expect(mailboxes).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: email, label: `signup ${sitesUrl()}` })]),
    );
  });

  it("ends verification_failed when the site refuses the emailed code, and the account stays unconfirmed", async () => {
    const email = await newMailbox();
    await fetch(`${sitesUrl()}/__fixture/deliveries`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: email, delivery: "expired" }),
    });
    const res = await signupAt("signup-code", { cred: { email } });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_failed"]);
    expect(res.body.error.message).toContain("That code is incorrect or has expired.");
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: false })]);
    // The account exists on the site: its credential keeps the generated password.
    expect(await keptCredential(res)).toMatchObject({
      username: email,
      status: "pending",
      lastError: "verification_failed",
    });
  });

  it("keeps the account pending when no confirmation arrives, having sent the form once", async () => {
    const email = await newMailbox();
    await fetch(`${sitesUrl()}/__fixture/deliveries`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: email, delivery: "lost" }),
    });
    const res = await signupAt("signup-link", { cred: { email } });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_pending"]);
    expect(res.body.error.message).toContain(`no email with a confirmation link arrived at ${email}`);
    expect(await keptCredential(res)).toMatchObject({
      username: email,
      status: "pending_verification",
      lastError: "verification_pending",
    });
    expect(await attempts(email)).toEqual({ "signup-link": 1 });
  });
});

/** The credential a failed signup's error names, as the API lists it; its stored secret is checked in the database. */
async function keptCredential(res: Awaited<ReturnType<typeof call<any>>>) {
  const id = res.body.error.credentialId as string;
  expect(id).toMatch(/^cred_/);
  expect(res.headers.get("location")).toBe(`/v1/credentials/${id}`);
  const secret = await database().credentials.secret(tenant.orgId, id);
  expect(secret?.password).toEqual(expect.any(String));
  expect(secret!.password!.length).toBeGreaterThanOrEqual(12);
  return (await call("GET", `/v1/credentials/${id}`, { key: tenant.key })).body;
}

describe("POST /v1/signup with the caller's own address", () => {
  it("signs up at once where the site asks for no confirmation", async () => {
    const email = `own-${Date.now().toString(36)}@agents.example.test`;
    const res = await signupAt("signup-instant", { cred: { email } });
    expect(res.status).toBe(201);
    await expectSignedIn("signup-instant", res.body.cookies, email);
  });

  it("keeps the account as pending_verification where the site mails a confirmation elsewhere", async () => {
    const email = `own-${Date.now().toString(36)}@agents.example.test`;
    const res = await signupAt("signup-link", { cred: { email } });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_pending"]);
    expect(res.body.error.message).toContain(`no mail to ${email} reaches the service`);
    expect(await keptCredential(res)).toMatchObject({ username: email, status: "pending_verification" });
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ confirmed: false })]);
    // The job says the same to a caller who polls it.
    const job = await call("GET", `/v1/jobs/${res.headers.get("x-job-id")}`, { key: tenant.key });
    expect(job.body.error).toMatchObject({ code: "verification_pending", credentialId: res.body.error.credentialId });
  });
});

describe("POST /v1/signup: sites that want a login name, or say the account was made above their form", () => {
  it("fills a tracker's required Login field no value was given for, to the site's rules, and signs in (201, never signup_rejected)", async () => {
    const email = await newMailbox();
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: { signup_method: "email", domain: `${sitesUrl()}/cases/signup-tracker/account/register`, cred: { email } },
    });
    expect([res.status, res.body.error?.message]).toEqual([201, undefined]);
    expect(res.body.account.username).toMatch(/^[a-z0-9]+$/);
    await expectSignedIn("signup-tracker", res.body.cookies, email);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-tracker", username: res.body.account.username, confirmed: true }),
    ]);
  });

  it("follows the activation link a tracker says it mailed above its login form, then signs in with the login name (its login page refuses the email)", async () => {
    const email = await newMailbox();
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "email",
        domain: `${sitesUrl()}/cases/signup-tracker-mail/account/register`,
        cred: { email },
      },
    });
    expect([res.status, res.body.error?.message]).toEqual([201, undefined]);
    const username = res.body.account.username as string;
    await expectSignedIn("signup-tracker-mail", res.body.cookies, username);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-tracker-mail", username, confirmed: true }),
    ]);
    // The credential signs in with the name the site takes, not the email it refused.
    expect(await call("GET", `/v1/credentials/${res.body.credentialId}`, { key: tenant.key })).toMatchObject({
      body: { username },
    });
  });

  it("follows the activation link when the login is refused as 'not activated yet' on a page that never said a mail was sent", async () => {
    const email = await newMailbox();
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "email",
        domain: `${sitesUrl()}/cases/signup-tracker-quiet/account/register`,
        cred: { email },
      },
    });
    expect([res.status, res.body.error?.message]).toEqual([201, undefined]);
    await expectSignedIn("signup-tracker-quiet", res.body.cookies, res.body.account.username);
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-tracker-quiet", confirmed: true }),
    ]);
  });

  it("answers verification_pending, never invalid_credentials, where that tracker's activation mail goes elsewhere", async () => {
    const email = `own-${Date.now().toString(36)}@agents.example.test`;
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "email",
        domain: `${sitesUrl()}/cases/signup-tracker-mail/account/register`,
        cred: { email },
      },
    });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_pending"]);
    expect(await keptCredential(res)).toMatchObject({ status: "pending_verification" });
    expect(await siteAccounts(email)).toEqual([
      expect.objectContaining({ site: "signup-tracker-mail", confirmed: false }),
    ]);
  });

  it("reads 'The signup was successful! You can now … log in' above the form drawn again as the account made, and signs it in", async () => {
    const username = `hubapi${Date.now().toString(36)}`;
    const res = await signupAt("signup-hub", { cred: { email: await newMailbox(), username } });
    expect([res.status, res.body.error?.message]).toEqual([201, undefined]);
    await expectSignedIn("signup-hub", res.body.cookies, username);
    expect(await siteAccounts(username)).toHaveLength(1);
  });
});

describe("POST /v1/signup: a hash-routed single-page app", () => {
  it("opens the sign-up route the domain names (#/signup), not the app's root, and the site signs the account in", async () => {
    const email = await newMailbox();
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: { signup_method: "email", domain: `${sitesUrl()}/cases/signup-hash/#/signup`, cred: { email } },
    });
    expect([res.status, res.body.error?.message]).toEqual([201, undefined]);
    expect(res.body.cookies.map((c: any) => c.name)).toContain("signup_hash_sid");
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ site: "signup-hash", confirmed: true })]);
  });
});

describe("POST /v1/signup: sites that sign the new account in", () => {
  it("signs up on a script-drawn form with a username, and the cached session serves the next login", async () => {
    const email = await newMailbox();
    const res = await signupAt("signup-instant", { cred: { email, password: "chosen-password-1" } });
    expect(res.status).toBe(201);
    expect(res.body.account).toEqual({
      email,
      username: email
        .split("@")[0]!
        .replace(/[^a-z0-9]/g, "")
        .slice(0, 20),
      passwordGenerated: false,
    });
    await expectSignedIn("signup-instant", res.body.cookies, email);
    // The session is cached under the login the caller can now make with the same credentials.
    const login = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${sitesUrl()}/cases/signup-instant/login`,
        login_method: "password",
        cred: { username: email, password: "chosen-password-1" },
      },
    });
    expect([login.status, login.headers.get("x-auth-cache")]).toEqual([200, "hit"]);
    expect(login.body.cookies).toEqual(res.body.cookies);
  });

  it("takes a variant of a username that is taken and reports it", async () => {
    const taken = (await newSiteUser("someone-else-1")).username;
    const email = await newMailbox();
    const res = await signupAt("signup-instant", { cred: { email, username: taken } });
    expect(res.status).toBe(201);
    expect(res.body.account.username).toMatch(/\d{4}$/);
    expect(res.body.account.username).not.toBe(taken);
    expect(await siteAccounts(email)).toEqual([expect.objectContaining({ username: res.body.account.username })]);
  });

  it("answers 409 account_exists for an email the site already has, and leaves a working credential alone", async () => {
    const email = await newMailbox();
    expect((await signupAt("signup-instant", { cred: { email } })).status).toBe(201);
    const again = await signupAt("signup-instant", { cred: { email } });
    expect([again.status, again.body.error.code, again.body.error.message]).toEqual([
      409,
      "account_exists",
      "An account with this email address already exists.",
    ]);
    const listed = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials.filter(
      (c: any) => c.username === email,
    );
    expect(listed).toEqual([expect.objectContaining({ status: "active", lastError: null })]);
  });

  it("generates a password to the site's passwordrules, which refresh then logs in with", async () => {
    const email = await newMailbox();
    const res = await signupAt("signup-rules", { cred: { email } });
    expect(res.status).toBe(201);
    const secret = await database().credentials.secret(tenant.orgId, res.body.credentialId);
    expect(secret!.password).toMatch(/^[A-Za-z0-9!#$%]{12,16}$/);
    const refreshed = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { domain: `${sitesUrl()}/cases/signup-rules/signup`, username: email },
    });
    expect(refreshed.status).toBe(200);
    await expectSignedIn("signup-rules", refreshed.body.cookies, email);
  });

  it("finishes in the background past the wait, and the job answers the signup's body", async () => {
    const email = await newMailbox();
    const res = await signupAt("signup-hints", { cred: { email } }, tenant.key, { prefer: "respond-async" });
    expect(res.status).toBe(202);
    // Polled as a caller would until it ends; a signup in a browser on a loaded machine takes a while.
    const job = await finishedJob(tenant.key, res.body.jobId, { everyMs: 300 });
    expect(job.status).toBe("succeeded");
    expect(job.result).toMatchObject({
      credentialId: expect.stringMatching(/^cred_/),
      account: { email, username: null, passwordGenerated: true },
    });
    await expectSignedIn("signup-hints", job.result.cookies, email);
  });
});

describe("POST /v1/signup: invitations", () => {
  it("opens the invitation link, keeps the invited address, and signs in", async () => {
    const invited = `invitee${Date.now().toString(36)}@example.test`;
    const { url, token } = await invitation(invited);
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: { signup_method: "invitation", domain: `${sitesUrl()}/cases/signup-invite/join`, invite_token: url },
    });
    expect(res.status).toBe(201);
    expect(res.body.account.email).toBe(invited);
    await expectSignedIn("signup-invite", res.body.cookies, invited);
    expect(await siteAccounts(invited)).toEqual([expect.objectContaining({ invitation: token, confirmed: true })]);
    const credential = await call("GET", `/v1/credentials/${res.body.credentialId}`, { key: tenant.key });
    expect(credential.body).toMatchObject({ username: invited, loginUrl: `${sitesUrl()}/cases/signup-invite/login` });
    // The link is a credential: it lives only in the job's encrypted input, never in a plain column.
    const job = await database().prisma.authJob.findUniqueOrThrow({ where: { id: res.headers.get("x-job-id")! } });
    expect(JSON.stringify([job, credential.body])).not.toContain(token);
    // No page linked to the login page: it was found where the site sends a visitor without cookies, and refresh signs in there.
    expect(await expireSiteSessions(invited)).toBeGreaterThan(0);
    const refreshed = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { credentialId: res.body.credentialId },
    });
    expect(refreshed.status).toBe(200);
    await expectSignedIn("signup-invite", refreshed.body.cookies, invited);
  });

  it("types a token into the page's invitation field; a used token is the site's refusal, no login tried and no password kept", async () => {
    const { token } = await invitation();
    const body = (email: string) => ({
      signup_method: "invitation",
      domain: `${sitesUrl()}/cases/signup-invite/join`,
      invite_token: token,
      cred: { email },
    });
    const first = await call("POST", "/v1/signup", { key: tenant.key, body: body(await newMailbox()) });
    expect(first.status).toBe(201);
    // The site answers with its refusal above a login form for members: no account was made, so nothing logs in.
    const email = await newMailbox();
    const reused = await call("POST", "/v1/signup", { key: tenant.key, body: body(email) });
    expect([reused.status, reused.body.error.code, reused.body.error.message]).toEqual([
      422,
      "signup_rejected",
      "That invitation code is not valid.",
    ]);
    expect(await attempts(email)).toEqual({ "signup-invite": 1 });
    expect(reused.body.error.credentialId).toBeUndefined();
    const job = await database().prisma.authJob.findUniqueOrThrow({ where: { id: reused.headers.get("x-job-id")! } });
    expect(await database().credentials.secret(tenant.orgId, job.credentialId)).toBeNull();
    // No account was made: no credential of it is listed or found.
    expect((await call("GET", `/v1/credentials/${job.credentialId}`, { key: tenant.key })).status).toBe(404);
    const listed = await call("GET", "/v1/credentials", { key: tenant.key });
    expect(listed.body.credentials.map((c: any) => c.id)).not.toContain(job.credentialId);
    expect(listed.body.credentials.map((c: any) => c.username)).toContain(first.body.account.email);
  });
});

describe("POST /v1/signup: requests", () => {
  it("checks the method, the invitation and where the email comes from before any browser runs", async () => {
    const other = await newTenant("Other signup org");
    const foreign = await newMailbox(other.key);
    const cases: Array<[Record<string, unknown>, number, string, string?]> = [
      [{ signup_method: "invitation" }, 400, "invalid_request", "/invite_token"],
      [{ signup_method: "email", invite_token: "abc", allocateMailbox: true }, 400, "invalid_request", "/invite_token"],
      [{ signup_method: "email" }, 400, "invalid_request", "/cred/email"],
      [{ signup_method: "email", cred: { email: `nobody@${MAIL_DOMAIN}` } }, 400, "invalid_request", "/cred/email"],
      [{ signup_method: "email", cred: { email: foreign } }, 400, "invalid_request", "/cred/email"],
      [
        { signup_method: "email", cred: { email: foreign }, allocateMailbox: true },
        400,
        "invalid_request",
        "/allocateMailbox",
      ],
      [{ signup_method: "sms", allocateMailbox: true }, 400, "invalid_request", "/signup_method"],
      [{ signup_method: "email", allocateMailbox: true, cred: { pin: "1" } }, 400, "invalid_request", "/cred/pin"],
      // Signup by OAuth names its provider once and brings the provider account.
      [{ signup_method: "oauth" }, 400, "invalid_request", "/provider"],
      [{ signup_method: "oauth", provider: "google", cred: { password: "p" } }, 400, "invalid_request", "/cred/email"],
      [
        { signup_method: "oauth", provider: "google", cred: { email: "agent@gmail.test" } },
        400,
        "invalid_request",
        "/cred/password",
      ],
      [
        {
          signup_method: "oauth",
          provider: "google",
          allocateMailbox: true,
          cred: { email: "agent@gmail.test", password: "p" },
        },
        400,
        "invalid_request",
        "/allocateMailbox",
      ],
      [
        { signup_method: "email", allocateMailbox: true, cred: { totpSecret: "JBSWY3DPEHPK3PXP" } },
        400,
        "invalid_request",
        "/cred/totpSecret",
      ],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await call("POST", "/v1/signup", {
        key: tenant.key,
        body: { domain: `${sitesUrl()}/cases/signup-link/signup`, ...body },
      });
      expect([res.status, res.body.error.code, field && res.body.error.details?.[0]?.field]).toEqual([
        status,
        code,
        field,
      ]);
    }
    const privateTarget = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: { signup_method: "email", domain: "http://169.254.169.254/signup", allocateMailbox: true },
    });
    expect([privateTarget.status, privateTarget.body.error.code]).toEqual([422, "target_not_allowed"]);
    expect(
      (await call("POST", "/v1/signup", { body: { signup_method: "email", domain: "http://x.test/" } })).status,
    ).toBe(401);
  });
});
