import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  attempts,
  closeDatabase,
  expectSignedIn,
  gatewayUrl,
  loginBody,
  newSiteUser,
  newTenant,
  sitesUrl,
  waitFor,
} from "@authsvc/devstack";
import { newTotpSecret, parseTotpSecret, totpCode } from "@authsvc/crypto";
import {
  AuthClient,
  cookieHeaderFor,
  IdempotencyMismatchError,
  LoginFailedError,
  verifyWebhook,
  WebhookVerificationError,
  type InputRequest,
  type JobEvent,
  type LoginRequest,
  type SessionResponse,
} from "@authsvc/sdk";

// The SDK against the live service: gateway, worker, Chromium and the fixture sites.
let client: AuthClient;
beforeAll(async () => {
  const { key } = await newTenant("SDK org");
  client = new AuthClient({ baseUrl: gatewayUrl(), apiKey: key });
});
afterAll(() => closeDatabase());

const classicLogin = (user: { username: string; password: string }, extra: Partial<LoginRequest> = {}) =>
  loginBody("classic", user, extra) as LoginRequest;

/** The classic site's account page, fetched with the Cookie header the SDK builds for it. */
async function classicAccountPage(session: SessionResponse): Promise<string> {
  const url = `${sitesUrl()}/classic/account`;
  const res = await fetch(url, { headers: { cookie: cookieHeaderFor(session, url) }, redirect: "manual" });
  return `${res.status} ${await res.text()}`;
}

/** A customer's webhook endpoint on loopback that keeps the raw bodies and headers it receives. */
async function webhookReceiver(): Promise<{
  url: string;
  received: Array<{ body: string; signature: string }>;
  close: () => Promise<void>;
}> {
  const received: Array<{ body: string; signature: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ body, signature: String(req.headers["x-authsvc-signature"]) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe("@authsvc/sdk against the live service", () => {
  it("logs in, refreshes with the stored credential (delivering a webhook it verifies), and throws a wrong password as LoginFailedError", async () => {
    const receiver = await webhookReceiver();
    try {
      const hook = await client.webhooks.create({ url: receiver.url, events: ["session.refreshed"] });
      expect(hook.secret).toMatch(/^whsec_/);
      expect(await client.webhooks.list()).toEqual([
        { id: hook.id, url: receiver.url, events: ["session.refreshed"], createdAt: hook.createdAt },
      ]);

      const user = await newSiteUser("sdk-login-1");
      const session = await client.login(classicLogin(user));
      expect(session.origins).toContain(sitesUrl());
      expect(await classicAccountPage(session)).toContain(`200`);
      expect(await classicAccountPage(session)).toContain(`Welcome, ${user.username}`);

      const [credential] = (await client.credentials.list()).credentials.filter((c) => c.username === user.username);
      expect(await client.credentials.get(credential!.credentialId)).toMatchObject({
        status: "active",
        site: sitesUrl(),
      });
      const refreshed = await client.refresh({ credentialId: credential!.credentialId });
      expect(refreshed.credentialId).toBe(credential!.credentialId);
      expect(await classicAccountPage(refreshed)).toContain(`Welcome, ${user.username}`);

      const delivery = await waitFor("a session.refreshed delivery", () => receiver.received[0], { timeoutMs: 15_000 });
      const event = await verifyWebhook(delivery.body, delivery.signature, hook.secret);
      expect(event).toMatchObject({
        type: "session.refreshed",
        data: { credentialId: credential!.credentialId, username: user.username },
      });
      await expect(
        verifyWebhook(delivery.body.replace(user.username, "someone-else"), delivery.signature, hook.secret),
      ).rejects.toBeInstanceOf(WebhookVerificationError);
      await expect(verifyWebhook(delivery.body, delivery.signature, "whsec_not-this-one")).rejects.toMatchObject({
        reason: "signature_mismatch",
      });
      await client.webhooks.delete(hook.id);

      const wrong = await client
        .login(classicLogin({ username: user.username, password: "not-the-password" }))
        .catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(LoginFailedError);
      expect(wrong).toMatchObject({ code: "invalid_credentials", status: 422, requestId: expect.any(String) });
      expect((wrong as Error).message).not.toContain("not-the-password");
    } finally {
      await receiver.close();
    }
  });

  it("follows a 202 (respond-async) over the job's events to the session; a late listener gets the same events; a keyed retry replays it without a second browser run", async () => {
    const user = await newSiteUser("sdk-async-1");
    const idempotencyKey = `sdk-test-${crypto.randomUUID()}`;
    const replayed: Array<string | null> = [];
    const onResponse = (r: { headers: Headers }) => replayed.push(r.headers.get("idempotent-replayed"));
    const progress: JobEvent[] = [];
    const session = await client.login(classicLogin(user, { useCache: false }), {
      respondAsync: true,
      idempotencyKey,
      onResponse,
      onProgress: (e) => progress.push(e),
    });
    expect(await classicAccountPage(session)).toContain(`Welcome, ${user.username}`);

    // Every step, in the order they happen, ending with succeeded.
    const types = progress.map((e) => e.type);
    expect(types[types.length - 1]).toBe("succeeded");
    for (const step of ["started", "navigating", "submitted"] as const) expect(types).toContain(step);
    const order = ["queued", "started", "navigating", "form_found", "submitted", "verifying", "succeeded"];
    const ranks = types.filter((t) => order.includes(t)).map((t) => order.indexOf(t));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const jobId = progress[0]!.jobId;
    expect(progress.every((e) => e.jobId === jobId)).toBe(true);

    const late: JobEvent[] = [];
    for await (const event of client.jobs.events(jobId)) late.push(event);
    expect(late).toEqual(progress);
    const text = JSON.stringify(progress);
    for (const secret of [user.password, ...session.cookies.map((c) => c.value)]) expect(text).not.toContain(secret);

    // The agent retries the same call with the same key: the job's answer again, and the site saw one login.
    const again = await client.login(classicLogin(user, { useCache: false }), { idempotencyKey, onResponse });
    expect(again.cookies).toEqual(session.cookies);
    expect(replayed).toEqual([null, "true"]);
    expect(await attempts(user.username)).toEqual({ classic: 1 });

    const mismatch = await client
      .login(classicLogin(user, { useCache: true }), { idempotencyKey })
      .catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(IdempotencyMismatchError);
    expect(mismatch).toMatchObject({ code: "idempotency_mismatch", status: 422 });
  });

  it("hands a code step to a person: onNeedsInput hears each question, the answer goes to jobs.input, and login resolves with the session", async () => {
    const totpSecret = newTotpSecret();
    const user = await newSiteUser(undefined, { totpSecret });
    const asked: InputRequest[] = [];
    const session = await client.login(
      {
        domain: `${sitesUrl()}/cases/otp-prompt/login`,
        login_method: "password",
        cred: user,
        useCache: false,
        allowHandoff: true,
      },
      {
        onNeedsInput: async (input, jobId) => {
          asked.push(input);
          // The person mistypes once; the site's refusal comes back as the next question.
          await client.jobs.input(jobId, {
            code: asked.length === 1 ? "000000" : totpCode(parseTotpSecret(totpSecret), Date.now()),
          });
        },
      },
    );
    expect(asked.map((q) => [q.reason, q.fields])).toEqual([
      ["code", ["code"]],
      ["code", ["code"]],
    ]);
    expect(asked[1]!.prompt).toContain("That code didn't work");
    const account = await fetch(`${sitesUrl()}/cases/otp-prompt/account`, {
      headers: { cookie: cookieHeaderFor(session, `${sitesUrl()}/cases/otp-prompt/account`) },
      redirect: "manual",
    });
    expect(account.status).toBe(200);
  });

  it("signs up with a mailbox of ours, answering the emailed code", async () => {
    const mailbox = await client.mailboxes.create({ label: "sdk signup" });
    expect(await client.mailboxes.get(mailbox.id)).toEqual(mailbox);
    const created = await client.signup({
      signup_method: "email",
      domain: `${sitesUrl()}/cases/signup-code/signup`,
      cred: { email: mailbox.address, name: "Ada Lovelace" },
    });
    expect(created).toMatchObject({
      credentialId: expect.stringMatching(/^cred_/),
      account: { email: mailbox.address, passwordGenerated: true },
    });
    await expectSignedIn("signup-code", created.cookies, mailbox.address);
    const { messages } = await client.mailboxes.messages(mailbox.id);
    expect(messages).toEqual([
      expect.objectContaining({ recipient: mailbox.address, code: expect.stringMatching(/^\d{6}$/) }),
    ]);
  });
});
