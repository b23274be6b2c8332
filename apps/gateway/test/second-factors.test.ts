import {
  attempts,
  call,
  closeDatabase,
  database,
  expectSignedIn,
  newInboxUser,
  newPhoneNumber,
  newTenant,
  runScript,
  sitesUrl,
} from "@authsvc/devstack";
import { twilioSignature } from "@authsvc/crypto";

const MAIL_DOMAIN = process.env.MAIL_DOMAIN!;
const WAIT_S = Math.round(Number(process.env.MFA_WAIT_MS) / 1000);
let tenant: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  tenant = await newTenant("Second factors org");
});
afterAll(() => closeDatabase());

async function newMailbox(key = tenant.key): Promise<string> {
  const res = await call("POST", "/v1/mailboxes", { key, body: {} });
  expect(res.status).toBe(201);
  return res.body.address as string;
}

/** A number assigned to the test org, as the operator's CLI does it. */
async function newPhone(orgId = tenant.orgId): Promise<string> {
  const number = newPhoneNumber();
  await database().phoneNumbers.create(orgId, number);
  return number;
}

const login = (page: string, method: string, cred: Record<string, string>, key = tenant.key) =>
  call("POST", "/v1/login", { key, body: { domain: `${sitesUrl()}/cases/${page}/login`, login_method: method, cred } });

describe("mailboxes", () => {
  it("gives the org addresses on the mail domain, lists and deletes them, and keeps them from other orgs", async () => {
    const other = await newTenant("Other mailbox org");
    const random = await call("POST", "/v1/mailboxes", { key: tenant.key, body: { label: "shop agent" } });
    expect(random.status).toBe(201);
    expect(random.body).toMatchObject({
      id: expect.stringMatching(/^mbx_/),
      address: expect.stringMatching(new RegExp(`^agent-[a-z0-9]{12}@${MAIL_DOMAIN.replace(/\./g, "\\.")}$`)),
      label: "shop agent",
    });
    expect(random.headers.get("location")).toBe(`/v1/mailboxes/${random.body.id}`);

    const local = `Billing.${Date.now().toString(36)}`;
    const chosen = await call("POST", "/v1/mailboxes", { key: tenant.key, body: { localPart: local } });
    expect([chosen.status, chosen.body.address]).toEqual([201, `${local.toLowerCase()}@${MAIL_DOMAIN}`]);
    const taken = await call("POST", "/v1/mailboxes", { key: other.key, body: { localPart: local.toUpperCase() } });
    expect([taken.status, taken.body.error.code]).toEqual([409, "conflict"]);

    for (const localPart of ["a+b", ".dot", "x".repeat(65), "spa ce", "postmaster", "Admin", "abuse"]) {
      const bad = await call("POST", "/v1/mailboxes", { key: tenant.key, body: { localPart } });
      expect([bad.status, bad.body.error.details[0].field]).toEqual([400, "/localPart"]);
    }
    expect((await call("POST", "/v1/mailboxes", { key: tenant.key, body: { address: "x@y.z" } })).status).toBe(400);

    const listed = await call("GET", "/v1/mailboxes", { key: tenant.key });
    expect(listed.body.mailboxes.map((m: any) => m.id)).toEqual(
      expect.arrayContaining([random.body.id, chosen.body.id]),
    );
    expect((await call("GET", "/v1/mailboxes", { key: other.key })).body.mailboxes).toEqual([]);
    expect((await call("GET", `/v1/mailboxes/${random.body.id}`, { key: other.key })).status).toBe(404);
    expect((await call("DELETE", `/v1/mailboxes/${random.body.id}`, { key: other.key })).status).toBe(404);
    expect((await call("GET", `/v1/mailboxes/${random.body.id}`, { key: tenant.key })).body.address).toBe(
      random.body.address,
    );

    expect((await call("DELETE", `/v1/mailboxes/${random.body.id}`, { key: tenant.key })).status).toBe(204);
    expect((await call("DELETE", `/v1/mailboxes/${random.body.id}`, { key: tenant.key })).status).toBe(404);
    // A deleted address is never handed out again: its new owner would get mail meant for the old one.
    expect((await call("DELETE", `/v1/mailboxes/${chosen.body.id}`, { key: tenant.key })).status).toBe(204);
    const reused = await call("POST", "/v1/mailboxes", { key: other.key, body: { localPart: local } });
    expect([reused.status, reused.body.error.code]).toEqual([409, "conflict"]);
    expect(
      (await call("GET", "/v1/mailboxes", { key: tenant.key })).body.mailboxes.map((m: any) => m.id),
    ).not.toContain(random.body.id);
    expect((await call("GET", "/v1/mailboxes", {})).status).toBe(401);
  });
});

describe("phone numbers", () => {
  const cli = (...args: string[]) => runScript("apps/cli/src/main.ts", args);

  it("are assigned to one org by the operator and listed to that org only", async () => {
    const number = newPhoneNumber();
    const other = await newTenant("Other phone org");
    const added = await cli("phone", "add", "--org", tenant.orgId, number, "--name", "agent phone");
    expect([added.code, added.stdout]).toEqual([0, expect.stringContaining(`assigned ${number} to ${tenant.orgId}`)]);
    expect((await cli("phone", "add", "--org", other.orgId, number)).stderr).toContain("already assigned");
    expect((await cli("phone", "add", "--org", other.orgId, "4155550123")).code).toBe(2);

    const listed = await call("GET", "/v1/phone-numbers", { key: tenant.key });
    expect(listed.body.phoneNumbers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ number, label: "agent phone", id: expect.stringMatching(/^pn_/) }),
      ]),
    );
    expect((await call("GET", "/v1/phone-numbers", { key: other.key })).body.phoneNumbers).toEqual([]);
    // A tenant cannot claim a number: only the operator, who provisioned it at Twilio, assigns it.
    expect((await call("POST", "/v1/phone-numbers", { key: other.key, body: { number } })).status).toBe(404);

    expect((await cli("phone", "remove", number)).code).toBe(0);
    expect(
      (await call("GET", "/v1/phone-numbers", { key: tenant.key })).body.phoneNumbers.map((p: any) => p.number),
    ).not.toContain(number);
  });
});

describe("otp_email: a code sent to our mailbox", () => {
  it("signs in with only the email: the site mails a code over SMTP to mail-in, the flow types it", async () => {
    const address = await newMailbox();
    await newInboxUser(address);
    const res = await login("email-code", "otp_email", { email: address });
    expect(res.status).toBe(200);
    await expectSignedIn("email-code", res.body.cookies, address);
    expect(await attempts(address)).toEqual({ "email-code": 1 });

    // The mail is stored for this org only, and encrypted.
    const mailbox = await database().prisma.mailbox.findUniqueOrThrow({ where: { address } });
    const rows = await database().prisma.inboundMessage.findMany({ where: { mailboxId: mailbox.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.orgId).toBe(tenant.orgId);
    expect(rows[0]!.body).not.toMatch(/sign-in code|Acme/i);
  });

  it("answers a code asked for after the password, when the username is our mailbox", async () => {
    const address = await newMailbox();
    await newInboxUser(address, { password: "pw-then-mail" });
    const res = await login("password-email-code", "password", { username: address, password: "pw-then-mail" });
    expect(res.status).toBe(200);
    await expectSignedIn("password-email-code", res.body.cookies, address);
  });

  it("ends mfa_required when a code goes to an address that is not ours", async () => {
    const foreign = `someone-${Date.now()}@example.test`;
    await newInboxUser(foreign, { password: "pw-then-mail" });
    const res = await login("password-email-code", "password", { username: foreign, password: "pw-then-mail" });
    expect([res.status, res.body.error.code]).toEqual([422, "mfa_required"]);
  });

  it("reports a code the site refuses (expired) as verification_failed with its words, once", async () => {
    const address = await newMailbox();
    await newInboxUser(address, { delivery: "expired" });
    const res = await login("email-code", "otp_email", { email: address });
    expect([res.status, res.body.error.code]).toEqual([422, "verification_failed"]);
    expect(res.body.error.message).toBe("the site refused the one-time code: That code is incorrect or has expired.");
    expect(await attempts(address)).toEqual({ "email-code": 1 });
  });

  it("reads a refusal of the code written as plain text (no alert markup), and signs in with the right one", async () => {
    const address = await newMailbox();
    await newInboxUser(address);
    const ok = await login("email-code-plain", "otp_email", { email: address });
    expect(ok.status).toBe(200);
    await expectSignedIn("email-code-plain", ok.body.cookies, address);

    const expired = await newMailbox();
    await newInboxUser(expired, { delivery: "expired" });
    const res = await login("email-code-plain", "otp_email", { email: expired });
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      422,
      "verification_failed",
      "the site refused the one-time code: That code didn't work. Check the code and try again.",
    ]);
    expect(await attempts(expired)).toEqual({ "email-code-plain": 1 });
  });

  it("ends in timeout naming the wait when no mail arrives, and does not ask the site again", async () => {
    const address = await newMailbox();
    await newInboxUser(address, { delivery: "lost" });
    const res = await login("email-code", "otp_email", { email: address });
    expect([res.status, res.body.error.code]).toEqual([504, "timeout"]);
    expect(res.body.error.message).toBe(
      `no email with a sign-in code arrived at ${address} within ${WAIT_S} s (waiting for the sign-in code)`,
    );
    expect(await attempts(address)).toEqual({ "email-code": 1 });
  });

  it("reads a subaddress (agent+site@) from its mailbox", async () => {
    const address = await newMailbox();
    const tagged = address.replace("@", "+shop@");
    await newInboxUser(tagged);
    const res = await login("email-code", "otp_email", { email: tagged });
    expect(res.status).toBe(200);
    await expectSignedIn("email-code", res.body.cookies, tagged);
  });

  it("refuses an email that is not one of the org's mailboxes before any browser runs", async () => {
    const others = await newTenant("Mailbox owner org");
    const theirs = await newMailbox(others.key);
    for (const email of [theirs, `nobody-${Date.now()}@${MAIL_DOMAIN}`, "someone@example.test"]) {
      const res = await login("email-code", "otp_email", { email });
      expect([res.status, res.body.error.details?.[0]?.field]).toEqual([400, "/cred/email"]);
    }
    const missing = await login("email-code", "magic_link", { username: "just-a-name" });
    expect([missing.status, missing.body.error.details?.[0]?.field]).toEqual([400, "/cred/email"]);
  });
});

describe("magic_link: a sign-in link sent to our mailbox", () => {
  it("opens the link from the mail in the same browser and returns the signed-in session", async () => {
    const address = await newMailbox();
    await newInboxUser(address);
    const res = await login("magic-link", "magic_link", { email: address });
    expect(res.status).toBe(200);
    expect(res.body.cookies.map((c: any) => c.name)).toContain("magic_link_sid");
    await expectSignedIn("magic-link", res.body.cookies, address);
  });

  it("reports an expired link as verification_failed with the site's words", async () => {
    const address = await newMailbox();
    await newInboxUser(address, { delivery: "expired" });
    const res = await login("magic-link", "magic_link", { email: address });
    expect([res.status, res.body.error.code]).toEqual([422, "verification_failed"]);
    expect(res.body.error.message).toBe("This sign-in link has expired or was already used.");
  });

  it("ends in timeout when no link arrives", async () => {
    const address = await newMailbox();
    await newInboxUser(address, { delivery: "lost" });
    const res = await login("magic-link", "magic_link", { email: address });
    expect([res.status, res.body.error.code]).toEqual([504, "timeout"]);
    expect(res.body.error.message).toBe(
      `no email with a sign-in link arrived at ${address} within ${WAIT_S} s (waiting for the sign-in link)`,
    );
  });
});

describe("otp_sms: a code sent to our phone number", () => {
  it("signs in with the phone number: the site's SMS comes through the signed webhook", async () => {
    const phone = await newPhone();
    await newInboxUser(phone);
    const res = await login("sms-code", "otp_sms", { phone });
    expect(res.status).toBe(200);
    await expectSignedIn("sms-code", res.body.cookies, phone);
    const rows = await database().prisma.inboundMessage.findMany({ where: { phoneNumber: { number: phone } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body).not.toMatch(/verification code/);
  });

  it("reports a refused code and a missing SMS", async () => {
    const expired = await newPhone();
    await newInboxUser(expired, { delivery: "expired" });
    const refused = await login("sms-code", "otp_sms", { phone: expired });
    expect([refused.status, refused.body.error.code]).toEqual([422, "verification_failed"]);
    const lost = await newPhone();
    await newInboxUser(lost, { delivery: "lost" });
    const timedOut = await login("sms-code", "otp_sms", { phone: lost });
    expect([timedOut.status, timedOut.body.error.code, timedOut.body.error.message]).toEqual([
      504,
      "timeout",
      `no SMS with a sign-in code arrived at ${lost} within ${WAIT_S} s (waiting for the sign-in code)`,
    ]);
  });

  it("needs one of the org's numbers", async () => {
    const missing = await login("sms-code", "otp_sms", { username: "someone" });
    expect([missing.status, missing.body.error.details?.[0]?.field]).toEqual([400, "/cred/phone"]);
    const theirs = await newPhone((await newTenant("Phone owner org")).orgId);
    for (const phone of [newPhoneNumber(), theirs]) {
      const notOurs = await login("sms-code", "otp_sms", { phone });
      expect([notOurs.status, notOurs.body.error.details?.[0]?.field]).toEqual([400, "/cred/phone"]);
    }
    const notOurs = await login("sms-code", "otp_sms", { phone: newPhoneNumber() });
    expect([notOurs.status, notOurs.body.error.details?.[0]?.field]).toEqual([400, "/cred/phone"]);
  });
});

describe("the SMS webhook", () => {
  const webhook = () => `${process.env.E2E_GATEWAY_URL}/v1/inbound/sms`;
  const post = (params: Record<string, string>, signature: string) =>
    fetch(webhook(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
      body: new URLSearchParams(params).toString(),
    });

  it("stores a message Twilio signed, for the org that owns the number, and answers empty TwiML", async () => {
    const phone = await newPhone();
    const params = {
      MessageSid: `SM${Date.now()}`,
      AccountSid: "AC1",
      From: "+15005550006",
      To: phone,
      Body: "Your code is 123456",
    };
    const res = await post(params, twilioSignature(process.env.TWILIO_AUTH_TOKEN!, webhook(), params));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/xml/);
    expect(await res.text()).toContain("<Response></Response>");
    const rows = await database().prisma.inboundMessage.findMany({ where: { phoneNumber: { number: phone } } });
    expect(rows.map((r) => r.orgId)).toEqual([tenant.orgId]);
    // The same message again (Twilio's retry, or a replay of the signed request) is stored once.
    expect((await post(params, twilioSignature(process.env.TWILIO_AUTH_TOKEN!, webhook(), params))).status).toBe(200);
    expect(await database().prisma.inboundMessage.count({ where: { phoneNumber: { number: phone } } })).toBe(1);
  });

  it("refuses a wrong signature, a number nobody owns and a JSON body, and stores nothing", async () => {
    const phone = await newPhone();
    const params = { MessageSid: `SM${Date.now()}x`, From: "+15005550006", To: phone, Body: "Your code is 654321" };
    const good = twilioSignature(process.env.TWILIO_AUTH_TOKEN!, webhook(), params);
    const forged = await post({ ...params, Body: "Your code is 000000" }, good);
    expect([forged.status, ((await forged.json()) as any).error.code]).toEqual([401, "unauthorized"]);
    expect((await post(params, "")).status).toBe(401);
    const stranger = { ...params, To: newPhoneNumber() };
    const unknown = await post(stranger, twilioSignature(process.env.TWILIO_AUTH_TOKEN!, webhook(), stranger));
    expect(unknown.status).toBe(404);
    const json = await fetch(webhook(), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
    });
    expect(json.status).toBe(415);
    expect(await database().prisma.inboundMessage.count({ where: { phoneNumber: { number: phone } } })).toBe(0);
  });
});
