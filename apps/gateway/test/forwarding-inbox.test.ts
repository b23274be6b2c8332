import {
  attempts,
  call,
  closeDatabase,
  expectSignedIn,
  namedSitesUrl,
  newInboxUser,
  newTenant,
  finishedJob,
  sitesUrl,
  waitFor,
} from "@authsvc/devstack";

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
  const res = await fetch(`${sitesUrl()}/__fixture/mail-forwarding`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ address, forwardTo }),
  });
  expect(res.status).toBe(200);
  return { address, ...((await res.json()) as { code: string; link: string }) };
}

// The sites under their host name (acme.test): their mail is DKIM-signed for it, as a real site's is, and
// only mail the site's domain signed counts in a forwarding inbox.
const login = (page: string, method: string, cred: Record<string, string>, key = tenant.key) =>
  call("POST", "/v1/login", {
    key,
    body: { domain: `${namedSitesUrl()}/cases/${page}/login`, login_method: method, cred },
  });

/** How a login ended: its session or its error, following its job when the answer was 202 (a busy machine). */
async function outcome(
  res: Awaited<ReturnType<typeof login>>,
): Promise<{ session?: any; error?: string; message?: string }> {
  if (res.status === 200) return { session: res.body };
  if (res.status !== 202) return { error: res.body.error.code, message: res.body.error.message };
  const job = await finishedJob(tenant.key, res.body.jobId);
  return job.status === "succeeded" ? { session: job.result } : { error: job.error.code, message: job.error.message };
}

const fixture = (path: string, body: unknown) =>
  fetch(`${sitesUrl()}/__fixture/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the forwarding inbox", () => {
  it("is one mailbox of the org on the mail domain, created on first request", async () => {
    expect(forwarding).toMatchObject({
      id: expect.stringMatching(/^mbx_/),
      forwarding: true,
      address: expect.stringMatching(new RegExp(`^fwd-[a-z0-9]{12}@${MAIL_DOMAIN.replace(/\./g, "\\.")}$`)),
    });
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
      // Gmail's own mail is checked like any other (this fixture's is unsigned).
      authenticated: { dkim: [], arc: [] },
      code: own.code,
      link: own.link,
    });
    const withBody = await call("GET", `/v1/mailboxes/${forwarding.id}/messages?include=body&limit=100`, {
      key: tenant.key,
    });
    expect(withBody.body.messages.find((m: any) => m.id === confirmation.id).text).toContain(
      `Confirmation code: ${own.code}`,
    );

    const other = await newTenant("Not the forwarding org");
    expect((await call("GET", `/v1/mailboxes/${forwarding.id}/messages`, { key: other.key })).status).toBe(404);
    expect((await call("GET", `/v1/mailboxes/${forwarding.id}/messages?limit=x`, { key: tenant.key })).status).toBe(
      400,
    );
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
    expect(listed.find((m: any) => m.originalRecipients.includes(own.address))).toMatchObject({
      subject: "Your Acme sign-in code",
      code: expect.stringMatching(/^\d{6}$/),
      authenticated: { dkim: ["acme.test"], arc: [] },
    });
  });

  it("magic_link opens the forwarded link", async () => {
    const own = await ownAddress();
    await newInboxUser(own.address);
    const res = await login("magic-link", "magic_link", { email: own.address });
    expect(res.status).toBe(200);
    await expectSignedIn("magic-link", res.body.cookies, own.address);
  });

  it("two agents logging in at once each get their own code; an address whose mail is not forwarded gets none; a forged link is never opened", async () => {
    const [one, two, victim] = [await ownAddress(), await ownAddress(), await ownAddress()];
    const unforwarded = `stranger-${Date.now().toString(36)}@agents.example`;
    // The victim's real sign-in link never arrives; a forger who holds an account on the same site mails it a
    // sign-in link to the forger's own account, `From:` the site's address (signed for the forger's domain).
    const forger = `forger-${Date.now().toString(36)}@agents.example`;
    await Promise.all([
      newInboxUser(one.address),
      newInboxUser(two.address),
      newInboxUser(unforwarded),
      newInboxUser(victim.address, { delivery: "lost" }),
      newInboxUser(forger, { delivery: "late" }),
    ]);
    await fetch(`${sitesUrl()}/cases/magic-link/login`, {
      method: "POST",
      body: new URLSearchParams({ email: forger }),
    });
    const held = (await (
      await fetch(`${sitesUrl()}/__fixture/deliveries/held?address=${encodeURIComponent(forger)}`)
    ).json()) as { held: Array<{ text: string }> };
    const forgerLink = /http:\/\/\S+\/auth\?token=\S+/
      .exec(held.held[0]!.text)![0]
      .replace(sitesUrl(), namedSitesUrl());

    const [a, b, c, d] = await Promise.all([
      login("email-code", "otp_email", { email: one.address }).then(outcome),
      login("email-code", "otp_email", { email: two.address }).then(outcome),
      login("email-code", "otp_email", { email: unforwarded }).then(outcome),
      login("magic-link", "magic_link", { email: victim.address }).then(outcome),
      (async () => {
        // Once the victim's login asked the site for its link, the forged one arrives.
        await waitFor(
          "the victim's login asked for its link",
          async () => (await attempts(victim.address))["magic-link"] === 1,
        );
        const from = `"Acme Accounts" <no-reply@${new URL(namedSitesUrl()).hostname}>`;
        expect(
          (
            await fixture("forged-mail", {
              to: victim.address,
              from,
              signedBy: "forger.test",
              subject: "Sign in to Acme",
              text: `Click the link below to sign in to Acme:\n\n${forgerLink}\n`,
            })
          ).status,
        ).toBe(204);
      })(),
    ]);
    await expectSignedIn("email-code", a.session.cookies, one.address);
    await expectSignedIn("email-code", b.session.cookies, two.address);
    // The others' codes arrived in the same inbox while it waited, and were not taken.
    expect(c).toMatchObject({ error: "timeout" });
    expect(await attempts(unforwarded)).toEqual({ "email-code": 1 });
    // The forged link was read and passed over: it is not the site's (not signed by acme.test), and still unused.
    expect(d).toMatchObject({ error: "timeout", message: expect.stringMatching(/not signed by acme\.test/) });
    expect((await fetch(forgerLink.replace(namedSitesUrl(), sitesUrl()), { redirect: "manual" })).status).toBe(302);
    const listed = (await call("GET", `/v1/mailboxes/${forwarding.id}/messages?limit=100`, { key: tenant.key })).body
      .messages;
    // (The victim's messages as a list: a failure shows what did arrive for it.)
    expect(listed.filter((m: any) => m.originalRecipients.includes(victim.address))).toMatchObject([
      { link: forgerLink, authenticated: { dkim: ["forger.test"], arc: [] } },
    ]);
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
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "email",
        domain: `${namedSitesUrl()}/cases/signup-link/signup`,
        cred: { email: own.address },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.account).toMatchObject({ email: own.address });
    await expectSignedIn("signup-link", res.body.cookies, own.address);
  });

  it("keeps the account pending_verification when no confirmation is forwarded", async () => {
    const own = await ownAddress();
    await fixture("deliveries", { address: own.address, delivery: "lost" });
    const res = await call("POST", "/v1/signup", {
      key: tenant.key,
      body: {
        signup_method: "email",
        domain: `${namedSitesUrl()}/cases/signup-link/signup`,
        cred: { email: own.address },
      },
    });
    expect([res.status, res.body.error?.code]).toEqual([422, "verification_pending"]);
    const credential = await call("GET", `/v1/credentials/${res.body.error.credentialId}`, { key: tenant.key });
    expect(credential.body).toMatchObject({ username: own.address, status: "pending_verification" });
  });
});
