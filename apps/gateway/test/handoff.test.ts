import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { newTotpSecret, parseTotpSecret, totpCode } from "@authsvc/crypto";
import { call, closeDatabase, newSiteUser, newTenant, sitesUrl, waitFor } from "@authsvc/devstack";
import { ACCOUNT_PHONE, LOGIN_CASES } from "@authsvc/test-sites";

let tenant: Awaited<ReturnType<typeof newTenant>>;
let other: Awaited<ReturnType<typeof newTenant>>;

// The org's webhook endpoint, on loopback: what it was sent.
let receiver: Server;
const delivered: any[] = [];

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant("Hand-off org"), newTenant("Not the hand-off org")]);
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      delivered.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  expect(
    (await call("POST", "/v1/webhooks", { key: tenant.key, body: { url, events: ["job.needs_input"] } })).status,
  ).toBe(201);
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await closeDatabase();
});

// Password, then an authenticator's code: the request brings no totpSecret, so only a person can answer.
const WRONG_CODE = "That code didn't work. Check your authenticator app.";
const domain = () => LOGIN_CASES.find((c) => c.name === "totp-split")!.url(sitesUrl());
const accountPage = () => `${sitesUrl()}/cases/totp-split/account`;

async function authenticatorUser() {
  const totpSecret = newTotpSecret();
  return {
    user: await newSiteUser(undefined, { totpSecret }),
    code: () => totpCode(parseTotpSecret(totpSecret), Date.now()),
  };
}

const login = (user: { username: string; password: string }, extra: Record<string, unknown> = {}) =>
  call("POST", "/v1/login", {
    key: tenant.key,
    body: { domain: domain(), login_method: "password", cred: user, useCache: false, ...extra },
  });
const job = async (jobId: string, key = tenant.key) => (await call("GET", `/v1/jobs/${jobId}`, { key })).body;
const answer = (jobId: string, body: unknown, key = tenant.key) =>
  call("POST", `/v1/jobs/${jobId}/input`, { key, body });
const ended = (jobId: string) =>
  waitFor(`job ${jobId} ended`, async () => {
    const j = await job(jobId);
    return j.status === "succeeded" || j.status === "failed" ? j : null;
  });

async function signedIn(cookies: Array<{ name: string; value: string }>): Promise<boolean> {
  const res = await fetch(accountPage(), {
    headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    redirect: "manual",
  });
  return res.status === 200;
}

// A hand-off nobody answers, asked as the file begins: its whole window (HANDOFF_MAX_WAIT_MS) passes while
// the other tests run, and the test that wants its input_timeout reads its end (a state) when its turn comes.
let unanswered: ReturnType<typeof login>;
beforeAll(() => {
  unanswered = authenticatorUser().then(({ user }) => login(user, { allowHandoff: true }));
  unanswered.catch(() => undefined);
});

describe("the hand-off to a person (allowHandoff)", () => {
  it("without allowHandoff, a code the request cannot read ends mfa_required, as before", async () => {
    const { user } = await authenticatorUser();
    const res = await login(user);
    expect([res.status, res.body.error?.code]).toEqual([422, "mfa_required"]);
  });

  it("waits in needs_input for a person's code, asks again with the site's words after a refused one, and signs in with the right one", async () => {
    const { user, code } = await authenticatorUser();
    const res = await login(user, { allowHandoff: true });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "needs_input",
      input: {
        reason: "code",
        fields: ["code"],
        prompt: expect.stringMatching(/code/i),
        expiresAt: expect.any(String),
      },
    });
    const jobId = res.body.jobId as string;
    expect(Date.parse(res.body.input.expiresAt)).toBeGreaterThan(Date.now());

    // Another organization can neither read nor answer it; a body that is not an answer is refused.
    expect((await call("GET", `/v1/jobs/${jobId}`, { key: other.key })).status).toBe(404);
    expect((await answer(jobId, { code: "123456" }, other.key)).status).toBe(404);
    const twoAnswers = await answer(jobId, { code: "123456", choice: "x" });
    expect([twoAnswers.status, twoAnswers.body.error.code]).toEqual([400, "invalid_request"]);

    // A wrong code: the site refuses it, and the job asks again in the site's words.
    expect((await answer(jobId, { code: "000000" })).status).toBe(202);
    const again = await waitFor("the job asked again", async () => {
      const j = await job(jobId);
      return j.status === "needs_input" && j.input.prompt.includes(WRONG_CODE) ? j : null;
    });
    expect(again.input.expiresAt).toBe(res.body.input.expiresAt);

    // The right code (typed with a space, as people copy it); a second answer to the same question is refused.
    const right = code();
    const taken = await answer(jobId, { code: `${right.slice(0, 3)} ${right.slice(3)}` });
    expect([taken.status, taken.headers.get("location")]).toEqual([202, `/v1/jobs/${jobId}`]);
    const late = await answer(jobId, { code: "111111" });
    expect([late.status, late.body.error.code]).toEqual([409, "not_waiting_for_input"]);

    const done = await ended(jobId);
    expect(done.status).toBe("succeeded");
    expect(await signedIn(done.result.cookies)).toBe(true);
    expect((await answer(jobId, {})).status).toBe(409);

    // Its events told each question, with no code in any of them.
    const stream = await (
      await fetch(`${process.env.E2E_GATEWAY_URL}/v1/jobs/${jobId}/events`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      })
    ).text();
    expect(stream.match(/^event: needs_input$/gm)).toHaveLength(2);
    expect(stream).not.toContain(right);
    expect(stream).not.toContain("000000");

    // And its webhook heard of each question: ids, the site's origin, the reason, never a code.
    const hooks = await waitFor("both questions delivered", () => {
      const mine = delivered.filter((e) => e.data.jobId === jobId);
      return mine.length === 2 ? mine : null;
    });
    expect(hooks.map((e) => [e.type, e.data.reason, e.data.tries, e.data.origin])).toEqual([
      ["job.needs_input", "code", 1, new URL(sitesUrl()).origin],
      ["job.needs_input", "code", 2, new URL(sitesUrl()).origin],
    ]);
    expect(JSON.stringify(hooks)).not.toContain(right);
  });

  it("a push approval: mfa_required without a hand-off; with one, needs_input until the phone approves, then signed in by the page itself", async () => {
    const user = await newSiteUser();
    const domain = `${sitesUrl()}/cases/push-approval/login`;
    const alone = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain, login_method: "password", cred: user, useCache: false },
    });
    expect([alone.status, alone.body.error?.code]).toEqual([422, "mfa_required"]);

    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain, login_method: "password", cred: user, useCache: false, allowHandoff: true },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "needs_input",
      input: { reason: "approval", fields: [], prompt: expect.stringContaining("Approve the sign-in on your phone") },
    });
    // The person approves on their phone; nobody answers the API: the page goes on by itself.
    const phone = await fetch(`${sitesUrl()}/__fixture/push-approvals`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: user.username }),
    });
    expect(((await phone.json()) as { approved: number }).approved).toBeGreaterThanOrEqual(1);
    const done = await ended(res.body.jobId);
    expect(done.status).toBe("succeeded");
    const account = await fetch(`${sitesUrl()}/cases/push-approval/account`, {
      headers: { cookie: done.result.cookies.map((c: any) => `${c.name}=${c.value}`).join("; ") },
      redirect: "manual",
    });
    expect(account.status).toBe(200);
    // The question was withdrawn with the page's move: there is nothing to answer.
    expect((await answer(res.body.jobId, {})).status).toBe(409);
  });

  it("ends input_timeout when no one answers before expiresAt", async () => {
    // Asked when the file began (see unansweredJob): its window runs out while the tests before this one run.
    const res = await unanswered;
    expect([res.status, res.body.status]).toEqual([202, "needs_input"]);
    const done = await ended(res.body.jobId);
    expect(done).toMatchObject({ status: "failed", error: { code: "input_timeout" } });
    expect((await answer(res.body.jobId, { code: "123456" })).status).toBe(409);
  });

  it("a security question: mfa_required without a hand-off; with one, a refused answer is asked again in the site's words, and the right one signs in", async () => {
    const user = await newSiteUser();
    const domain = `${sitesUrl()}/cases/security-question/login`;
    const alone = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain, login_method: "password", cred: user, useCache: false },
    });
    expect([alone.status, alone.body.error?.code]).toEqual([422, "mfa_required"]);

    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain, login_method: "password", cred: user, useCache: false, allowHandoff: true },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "needs_input",
      input: {
        reason: "answer",
        fields: ["answer"],
        prompt: expect.stringContaining("What was the name of your first pet?"),
      },
    });
    const jobId = res.body.jobId as string;
    // What this step does not take is refused, and it keeps waiting.
    const wrongField = await answer(jobId, { code: "123456" });
    expect([wrongField.status, wrongField.body.error.details[0].field]).toEqual([400, "/code"]);
    expect((await answer(jobId, {})).status).toBe(400);

    expect((await answer(jobId, { answer: "Fluffy" })).status).toBe(202);
    const again = await waitFor("asked again", async () => {
      const j = await job(jobId);
      return j.status === "needs_input" && j.input.prompt.includes("That answer doesn't match our records") ? j : null;
    });
    expect(again.input.reason).toBe("answer");
    expect((await answer(jobId, { answer: "rex" })).status).toBe(202);
    const done = await ended(jobId);
    expect(done.status).toBe("succeeded");
    const account = await fetch(`${sitesUrl()}/cases/security-question/account`, {
      headers: { cookie: done.result.cookies.map((c: any) => `${c.name}=${c.value}`).join("; ") },
      redirect: "manual",
    });
    expect(account.status).toBe(200);
  });

  it("an account chooser: never a success without a choice; with a hand-off, the choices are offered and the one picked signs in as that organization", async () => {
    const user = await newSiteUser();
    const domain = `${sitesUrl()}/cases/account-chooser/login`;
    // Without a person the chooser page has no session of its own: the verdict says it could not confirm one.
    const alone = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain, login_method: "password", cred: user, useCache: false },
    });
    expect([alone.status, alone.body.error?.code]).toEqual([422, "login_unconfirmed"]);

    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain, login_method: "password", cred: user, useCache: false, allowHandoff: true },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "needs_input",
      input: {
        reason: "choice",
        fields: ["choice"],
        prompt: "Choose an account",
        choices: ["Acme Corp (Owner)", "Globex (Member)"],
      },
    });
    const jobId = res.body.jobId as string;
    const notOffered = await answer(jobId, { choice: "Initech" });
    expect([notOffered.status, notOffered.body.error.details[0].field]).toEqual([400, "/choice"]);
    expect((await answer(jobId, { choice: "Globex (Member)" })).status).toBe(202);
    const done = await ended(jobId);
    expect(done.status).toBe("succeeded");
    const account = await fetch(`${sitesUrl()}/cases/account-chooser/account`, {
      headers: { cookie: done.result.cookies.map((c: any) => `${c.name}=${c.value}`).join("; ") },
      redirect: "manual",
    });
    expect(await account.text()).toContain("Organization: Globex (Member)");
  });

  const loginAt = (name: string, user: { username: string; password: string }, extra: Record<string, unknown> = {}) =>
    call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${sitesUrl()}/cases/${name}/login`,
        login_method: "password",
        cred: user,
        useCache: false,
        ...extra,
      },
    });
  const accountOf = (name: string, cookies: Array<{ name: string; value: string }>) =>
    fetch(`${sitesUrl()}/cases/${name}/account`, {
      headers: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
      redirect: "manual",
    });

  it("a code texted to the phone on the account, not one of ours: mfa_required without a hand-off; with one, the person reads it off their phone", async () => {
    const user = await newSiteUser();
    expect((await loginAt("password-sms-code", user)).body.error?.code).toBe("mfa_required");
    const res = await loginAt("password-sms-code", user, { allowHandoff: true });
    expect(res.status).toBe(202);
    expect(res.body.input).toMatchObject({
      reason: "code",
      fields: ["code"],
      prompt: expect.stringContaining("your phone ending in 0100"),
    });
    // The second sign-in's code: the last text on their phone.
    const held = (await (
      await fetch(`${sitesUrl()}/__fixture/deliveries/held?address=${encodeURIComponent(`sms:${user.username}`)}`)
    ).json()) as { held: Array<{ text: string }> };
    const code = /\d{6}/.exec(held.held[held.held.length - 1]!.text)![0];
    expect((await answer(res.body.jobId, { code })).status).toBe(202);
    const done = await ended(res.body.jobId);
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    expect((await accountOf("password-sms-code", done.result.cookies)).status).toBe(200);
  });

  it("a code the login form asks for beside the password, and the request has no secret: mfa_required without a hand-off; with one, a person's code goes in the form again", async () => {
    const { user, code } = await authenticatorUser();
    expect((await loginAt("code-in-form", user)).body.error?.code).toBe("mfa_required");
    const res = await loginAt("code-in-form", user, { allowHandoff: true });
    expect(res.status).toBe(202);
    // The site's own words ask for it: the form went once without the code.
    expect(res.body.input).toMatchObject({
      reason: "code",
      fields: ["code"],
      prompt: expect.stringMatching(/OTP token/i),
    });
    expect((await answer(res.body.jobId, { code: code() })).status).toBe(202);
    const done = await ended(res.body.jobId);
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    expect((await accountOf("code-in-form", done.result.cookies)).status).toBe(200);
  });

  it("verify it's you, by a detail of the account: its field is the step's, a wrong number is asked again in the site's words, and the right one signs in", async () => {
    const user = await newSiteUser();
    const res = await loginAt("verify-identity", user, { allowHandoff: true });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "needs_input",
      input: {
        reason: "verification",
        fields: ["answer"],
        prompt: expect.stringContaining("enter the phone number on your account"),
      },
    });
    const jobId = res.body.jobId as string;
    expect((await answer(jobId, { answer: "+1 212 555 0199" })).status).toBe(202);
    const again = await waitFor("asked again", async () => {
      const j = await job(jobId);
      return j.status === "needs_input" && j.input.prompt.includes("doesn't match the one on your account") ? j : null;
    });
    expect(again.input).toMatchObject({ reason: "verification", fields: ["answer"] });
    expect((await answer(jobId, { answer: ACCOUNT_PHONE })).status).toBe(202);
    const done = await ended(jobId);
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    expect((await accountOf("verify-identity", done.result.cookies)).status).toBe(200);
  });

  it("verify it's you, by a link mailed to the person: asked with nothing to type; 'look again' before they opened it asks again, after it signs in", async () => {
    const user = await newSiteUser();
    const res = await loginAt("verify-device", user, { allowHandoff: true });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      status: "needs_input",
      input: {
        reason: "verification",
        fields: [],
        prompt: expect.stringContaining("Open the link in it on any device"),
      },
    });
    const jobId = res.body.jobId as string;
    // Not opened yet: the page, loaded again, still asks, and so does the job.
    expect((await answer(jobId, {})).status).toBe(202);
    await waitFor("asked again", () => (delivered.filter((d) => d.data?.jobId === jobId).length >= 2 ? true : null));
    await waitFor("waiting again", async () => ((await job(jobId)).status === "needs_input" ? true : null));
    // The person opens the link in their mail, then says so.
    const approved = await fetch(`${sitesUrl()}/__fixture/device-approvals`, {
      method: "POST",
      body: new URLSearchParams({ username: user.username }),
    });
    expect(await approved.json()).toEqual({ approved: 1 });
    expect((await answer(jobId, {})).status).toBe(202);
    const done = await ended(jobId);
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    expect((await accountOf("verify-device", done.result.cookies)).status).toBe(200);
  });

  it("the site's updated terms: never a success on the cookie it set before them; a person accepts and the session signs in, or declines: consent_denied", async () => {
    const [alone, accepting, declining] = await Promise.all([newSiteUser(), newSiteUser(), newSiteUser()]);
    const refused = await loginAt("terms-update", alone);
    expect([refused.status, refused.body.error?.code]).toEqual([422, "mfa_required"]);

    const res = await loginAt("terms-update", accepting, { allowHandoff: true });
    expect(res.status).toBe(202);
    expect(res.body.input).toMatchObject({
      reason: "consent",
      fields: ["choice"],
      prompt: expect.stringContaining("accept the updated terms"),
    });
    expect(res.body.input.choices).toEqual(expect.arrayContaining(["Accept and continue", "Decline"]));
    expect((await answer(res.body.jobId, { choice: "Accept and continue" })).status).toBe(202);
    const done = await ended(res.body.jobId);
    expect([done.status, done.error]).toEqual(["succeeded", undefined]);
    expect((await accountOf("terms-update", done.result.cookies)).status).toBe(200);

    const declined = await loginAt("terms-update", declining, { allowHandoff: true });
    expect(declined.body.input?.reason).toBe("consent");
    expect((await answer(declined.body.jobId, { choice: "Decline" })).status).toBe(202);
    const out = await ended(declined.body.jobId);
    expect(out).toMatchObject({
      status: "failed",
      error: { code: "consent_denied", message: expect.stringContaining("You need to accept the updated terms") },
    });
  });
});
