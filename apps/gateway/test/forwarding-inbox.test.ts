import { attempts, call, closeDatabase, expectSignedIn, newInboxUser, newTenant, sitesUrl } from "@authsvc/devstack";

const MAIL_DOMAIN = process.env.MAIL_DOMAIN!;
let tenant: Awaited<ReturnType<typeof newTenant>>;
let forwarding: { id: string; address: string };

beforeAll(async () => {
  tenant = await newTenant("Forwarding org");
  const res = await call("GET", "/v1/mailboxes/forwarding", { key: tenant.key });
  expect(res.status).toBe(200);
  forwarding = res.body;
});
afterAll(() => closeDatabase());

let seq = 0;
/** An address of the agent's own (a Gmail-like host), forwarded to the org's forwarding inbox as Gmail does. */
async function ownAddress(forwardTo = forwarding.address): Promise<{ address: string; code: string; link: string }> {
  const address = `agent${++seq}-${process.pid}-${Date.now().toString(36)}@agents.example`;
  const res = await fetch(`${sitesUrl()}/__fixture/mail-forwarding`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address, forwardTo }) });
  expect(res.status).toBe(200);
  return { address, ...((await res.json()) as { code: string; link: string }) };
}

const login = (page: string, method: string, cred: Record<string, string>, key = tenant.key) =>
  call("POST", "/v1/login", { key, body: { domain: `${sitesUrl()}/cases/${page}/login`, login_method: method, cred } });

/** How a login ended: its session or its error code, following its job when the answer was 202 (a busy machine). */
async function outcome(res: Awaited<ReturnType<typeof login>>): Promise<{ session?: any; error?: string }> {
  if (res.status === 200) return { session: res.body };
  if (res.status !== 202) return { error: res.body.error.code };
  for (;;) {
    const job = (await call("GET", `/v1/jobs/${res.body.jobId}`, { key: tenant.key })).body;
    if (job.status === "succeeded") return { session: job.result };
    if (job.status === "failed") return { error: job.error.code };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("the forwarding inbox", () => {
  it("is one mailbox of the org on the mail domain, created on first request", async () => {
    expect(forwarding).toMatchObject({ id: expect.stringMatching(/^mbx_/), forwarding: true, address: expect.stringMatching(new RegExp(`^fwd-[a-z0-9]{12}@${MAIL_DOMAIN.replace(/\./g, "\\.")}$`)) });
    const again = await call("GET", "/v1/mailboxes/forwarding", { key: tenant.key });
    expect(again.body.id).toBe(forwarding.id);
    const listed = (await call("GET", "/v1/mailboxes", { key: tenant.key })).body.mailboxes;
    expect(listed.filter((m: any) => m.forwarding)).toEqual([expect.objectContaining({ id: forwarding.id })]);
  });

  it("shows the provider's forwarding confirmation with its code and link; the body only on request, and to no other org", async () => {
    const own = await ownAddress();
    const res = await call("GET", `/v1/mailboxes/${forwarding.id}/messages`, { key: tenant.key });
    expect(res.status).toBe(200);
    const confirmation = res.body.messages.find((m: any) => m.subject.includes(own.address));
    expect(confirmation).toEqual({
      id: expect.stringMatching(/^msg_/),
      from: "forwarding-noreply@google.com",
      subject: `(#${own.code}) Gmail Forwarding Confirmation - Receive Mail from ${own.address}`,
      recipient: forwarding.address,
      originalRecipients: [],
      receivedAt: expect.any(String),
      code: own.code,
      link: own.link,
    });
    const withBody = await call("GET", `/v1/mailboxes/${forwarding.id}/messages?include=body&limit=100`, { key: tenant.key });
    expect(withBody.body.messages.find((m: any) => m.id === confirmation.id).text).toContain(`Confirmation code: ${own.code}`);

    const other = await newTenant("Not the forwarding org");
    expect((await call("GET", `/v1/mailboxes/${forwarding.id}/messages`, { key: other.key })).status).toBe(404);
    expect((await call("GET", `/v1/mailboxes/${forwarding.id}/messages?limit=x`, { key: tenant.key })).status).toBe(400);
  });
});

describe("auth with the caller's own address", () => {
  it("otp_email reads the code from the forwarded copy", async () => {
    const own = await ownAddress();
    await newInboxUser(own.address);
    const res = await login("email-code", "otp_email", { email: own.address });
    expect(res.status).toBe(200);
    await expectSignedIn("email-code", res.body.cookies, own.address);
    // The forwarded mail is listed with the address it was first sent to.
    const listed = (await call("GET", `/v1/mailboxes/${forwarding.id}/messages`, { key: tenant.key })).body.messages;
    expect(listed.find((m: any) => m.originalRecipients.includes(own.address))).toMatchObject({ subject: "Your Acme sign-in code", code: expect.stringMatching(/^\d{6}$/) });
  });

  it("magic_link opens the forwarded link", async () => {
    const own = await ownAddress();
    await newInboxUser(own.address);
    const res = await login("magic-link", "magic_link", { email: own.address });
    expect(res.status).toBe(200);
    await expectSignedIn("magic-link", res.body.cookies, own.address);
  });

  it("two agents logging in at once each get their own code; an address whose mail is not forwarded gets none", async () => {
    const [one, two] = [await ownAddress(), await ownAddress()];
    const unforwarded = `stranger-${Date.now().toString(36)}@agents.example`;
    await Promise.all([newInboxUser(one.address), newInboxUser(two.address), newInboxUser(unforwarded)]);
    const [a, b, c] = await Promise.all([
      login("email-code", "otp_email", { email: one.address }).then(outcome),
      login("email-code", "otp_email", { email: two.address }).then(outcome),
      login("email-code", "otp_email", { email: unforwarded }).then(outcome),
    ]);
    await expectSignedIn("email-code", a.session.cookies, one.address);
    await expectSignedIn("email-code", b.session.cookies, two.address);
    // The others' codes arrived in the same inbox while it waited, and were not taken.
    expect(c).toEqual({ error: "timeout" });
    expect(await attempts(unforwarded)).toEqual({ "email-code": 1 });
  });

  it("refuses otp_email and magic_link for an outside address while the org has no forwarding inbox", async () => {
    const other = await newTenant("No forwarding org");
    for (const method of ["otp_email", "magic_link"]) {
      const res = await login("email-code", method, { email: "agent@agents.example" }, other.key);
      expect([res.status, res.body.error.details?.[0]?.field]).toEqual([400, "/cred/email"]);
      expect(res.body.error.details[0].message).toContain("GET /v1/mailboxes/forwarding");
    }
  });
});

describe("signup with the caller's own address", () => {
  it("confirms the account through the forwarded confirmation mail", async () => {
    const own = await ownAddress();
    const res = await call("POST", "/v1/signup", { key: tenant.key, body: { signup_method: "email", domain: `${sitesUrl()}/cases/signup-link/signup`, cred: { email: own.address } } });
    expect(res.status).toBe(201);
    expect(res.body.account).toMatchObject({ email: own.address });
    await expectSignedIn("signup-link", res.body.cookies, own.address);
  });

  it("keeps the account pending_verification when no confirmation is forwarded", async () => {
    const own = await ownAddress();
    await fetch(`${sitesUrl()}/__fixture/deliveries`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address: own.address, delivery: "lost" }) });
    const res = await call("POST", "/v1/signup", { key: tenant.key, body: { signup_method: "email", domain: `${sitesUrl()}/cases/signup-link/signup`, cred: { email: own.address } } });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_pending"]);
    const credential = await call("GET", `/v1/credentials/${res.body.error.credentialId}`, { key: tenant.key });
    expect(credential.body).toMatchObject({ username: own.address, status: "pending_verification" });
  });
});
