import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "@authsvc/crypto";
import {
  call,
  closeDatabase,
  closeQueues,
  database,
  finalQueueJob,
  loginBody,
  maintenanceRunsSince,
  newSiteUser,
  newTenant,
  settledWebhookDeliveries,
  sitesUrl,
  waitFor,
  WAIT_BOUND_MS,
} from "@authsvc/devstack";

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  answered: number;
}

/** A customer's webhook endpoint on loopback: records every call and answers with the next planned status. */
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let plan: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const answered = plan.shift() ?? 204;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/authsvc`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await closeQueues();
  await closeDatabase();
});

// Deliveries and keep-alive refreshes come from the worker: bounded generously, for a loaded machine.
const eventually = <T>(read: () => T | undefined, what: string, ms = WAIT_BOUND_MS): Promise<T> =>
  waitFor(what, read, { timeoutMs: ms, everyMs: 50 });

/**
 * Waits until nothing more can reach the receiver about the credential: every auth job of it has ended in
 * the queue (a refresh queues its event before its run ends), then every delivery to the webhook has ended
 * (a delivery ends after the receiver answered it).
 */
async function settled(credentialId: string, webhookId: string): Promise<void> {
  const jobs = await database().prisma.authJob.findMany({ where: { credentialId }, select: { id: true } });
  for (const { id } of jobs) await finalQueueJob("auth", id);
  await settledWebhookDeliveries(webhookId);
}

const eventsOf = (type: string, credentialId: string) =>
  received.filter(
    (r) => r.headers["x-authsvc-event"] === type && JSON.parse(r.body).data.credentialId === credentialId,
  );

async function credentialOf(key: string, username: string): Promise<string> {
  return (await call("GET", "/v1/credentials", { key })).body.credentials.find((c: any) => c.username === username)
    .credentialId;
}

describe("webhooks", () => {
  it("are registered with a secret shown once, listed without it, and kept to their org", async () => {
    const tenant = await newTenant("Webhook CRUD org");
    const created = await call("POST", "/v1/webhooks", { key: tenant.key, body: { url: receiverUrl } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^whk_/),
      url: receiverUrl,
      events: ["session.refreshed", "session.expired", "credential.failed", "job.needs_input", "credential.created"],
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = await call("GET", "/v1/webhooks", { key: tenant.key });
    expect(listed.body.webhooks).toEqual([
      { id: created.body.id, url: receiverUrl, events: created.body.events, createdAt: created.body.createdAt },
    ]);
    const other = await newTenant("Other webhook org");
    expect((await call("GET", "/v1/webhooks", { key: other.key })).body.webhooks).toEqual([]);
    expect((await call("DELETE", `/v1/webhooks/${created.body.id}`, { key: other.key })).status).toBe(404);
    for (const body of [
      { url: "ftp://example.com/x" },
      { url: receiverUrl, events: ["session.exploded"] },
      { url: receiverUrl, events: [] },
      {},
    ]) {
      expect((await call("POST", "/v1/webhooks", { key: tenant.key, body })).status).toBe(400);
    }
    expect((await call("DELETE", `/v1/webhooks/${created.body.id}`, { key: tenant.key })).status).toBe(204);
    expect((await call("GET", "/v1/webhooks", { key: tenant.key })).body.webhooks).toEqual([]);
  });

  it("delivers session.refreshed signed with the secret, and retries after a 5xx", async () => {
    const tenant = await newTenant("Webhook refresh org");
    const hook = await call("POST", "/v1/webhooks", {
      key: tenant.key,
      body: { url: receiverUrl, events: ["session.refreshed"] },
    });
    const user = await newSiteUser("hook-refresh-1");
    expect((await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) })).status).toBe(200);
    const credentialId = await credentialOf(tenant.key, user.username);

    plan = [503]; // the receiver is down for the first delivery
    const refreshed = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });
    expect(refreshed.status).toBe(200);
    const [first, second] = await eventually(
      () =>
        eventsOf("session.refreshed", credentialId).length >= 2
          ? eventsOf("session.refreshed", credentialId)
          : undefined,
      "a retried delivery",
    );
    expect([first!.answered, second!.answered]).toEqual([503, 204]);
    expect(second!.body).toBe(first!.body);
    expect(verifyWebhookSignature(hook.body.secret, second!.body, String(second!.headers["x-authsvc-signature"]))).toBe(
      true,
    );
    expect(
      verifyWebhookSignature("whsec_someone-else", second!.body, String(second!.headers["x-authsvc-signature"])),
    ).toBe(false);

    const event = JSON.parse(second!.body);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "session.refreshed",
      createdAt: expect.any(String),
      orgId: tenant.orgId,
      data: {
        credentialId,
        site: sitesUrl(),
        username: user.username,
        jobId: refreshed.headers.get("x-job-id"),
        sessionExpiresAt: expect.any(String),
      },
    });
    expect(second!.headers["x-authsvc-delivery"]).toBe(event.id);
    // The event and the refresh's answer say the same of the same session.
    expect(event.data.sessionExpiresAt).toBe(refreshed.body.expiresAt);
    expect(second!.body).not.toContain(user.password);
    expect(second!.body).not.toContain(refreshed.body.cookies[0].value);
  });

  it("delivers credential.failed when a credential that worked is refused, and takes a 4xx answer as final", async () => {
    const tenant = await newTenant("Webhook failure org");
    const hook = await call("POST", "/v1/webhooks", {
      key: tenant.key,
      body: { url: receiverUrl, events: ["credential.failed"] },
    });
    const user = await newSiteUser("hook-failed-1");
    expect((await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) })).status).toBe(200);
    const credentialId = await credentialOf(tenant.key, user.username);
    // The password was changed on the site since.
    await fetch(`${sitesUrl()}/__fixture/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: user.username, password: "changed-on-the-site" }),
    });

    plan = [410];
    const failed = await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } });
    expect(failed.body.error.code).toBe("invalid_credentials");
    const [delivery] = await eventually(
      () =>
        eventsOf("credential.failed", credentialId).length ? eventsOf("credential.failed", credentialId) : undefined,
      "credential.failed",
    );
    expect(JSON.parse(delivery!.body).data).toMatchObject({
      credentialId,
      code: "invalid_credentials",
      username: user.username,
    });
    expect(delivery!.answered).toBe(410);
    // 410 is the receiver's final word: the delivery failed for good after one attempt, and once the refresh
    // and every delivery to the webhook have ended, no second attempt (nor second event) can come.
    await finalQueueJob("auth", failed.headers.get("x-job-id")!);
    const deliveries = await settledWebhookDeliveries(hook.body.id);
    expect(deliveries.map((d) => [d.state, d.attemptsMade])).toEqual([["failed", 1]]);
    expect(eventsOf("credential.failed", credentialId)).toHaveLength(1);
  });
});

describe("keep-alive", () => {
  it("refreshes a session before it expires, replacing the cached one, and says so", async () => {
    const tenant = await newTenant("Keep-alive org");
    const hook = await call("POST", "/v1/webhooks", {
      key: tenant.key,
      body: { url: receiverUrl, events: ["session.refreshed"] },
    });
    const user = await newSiteUser("keepalive-1");
    const first = await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) });
    const credentialId = await credentialOf(tenant.key, user.username);
    // As if its cookies ran out in five minutes: within the keep-alive window.
    await database().prisma.session.updateMany({
      where: { credentialId },
      data: { expiresAt: new Date(Date.now() + 5 * 60_000) },
    });

    const [event] = await eventually(
      () =>
        eventsOf("session.refreshed", credentialId).length ? eventsOf("session.refreshed", credentialId) : undefined,
      "a keep-alive refresh",
    );
    expect(JSON.parse(event!.body).data).toMatchObject({ credentialId, username: user.username });
    const cached = await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) });
    expect(cached.headers.get("x-auth-cache")).toBe("hit");
    const sid = (r: any) => r.body.cookies.find((c: any) => c.name === "classic_sid").value;
    expect(sid(cached)).not.toBe(sid(first));
    expect(await database().prisma.session.count({ where: { credentialId } })).toBe(2);
    // Refreshed once: the replaced session is not picked again. Once keep-alive marked it handled, two
    // runs that started after saw both sessions; then whatever they started, and its events, has ended.
    await waitFor(
      "the replaced session marked handled",
      async () => (await database().prisma.session.count({ where: { credentialId, keepaliveAt: { not: null } } })) >= 1,
    );
    await maintenanceRunsSince("keepalive", Date.now(), 2);
    await settled(credentialId, hook.body.id);
    expect(eventsOf("session.refreshed", credentialId)).toHaveLength(1);
  });

  it("reports a session that ended without a replacement as session.expired, once", async () => {
    const tenant = await newTenant("Expiry org");
    const hook = await call("POST", "/v1/webhooks", {
      key: tenant.key,
      body: { url: receiverUrl, events: ["session.expired"] },
    });
    const user = await newSiteUser("keepalive-2");
    await call("POST", "/v1/login", { key: tenant.key, body: loginBody("classic", user) });
    const credentialId = await credentialOf(tenant.key, user.username);
    // The credential was refused since, so keep-alive cannot refresh it; then its session ran out.
    await database().prisma.credential.update({
      where: { id: credentialId },
      data: { lastErrorCode: "invalid_credentials" },
    });
    await database().prisma.session.updateMany({
      where: { credentialId },
      data: { expiresAt: new Date(Date.now() - 60_000) },
    });

    const [event] = await eventually(
      () => (eventsOf("session.expired", credentialId).length ? eventsOf("session.expired", credentialId) : undefined),
      "session.expired",
    );
    expect(JSON.parse(event!.body).data).toMatchObject({
      credentialId,
      username: user.username,
      reason: "invalid_credentials",
      expiredAt: expect.any(String),
    });
    // Once: the run that reported it marked the session handled; two runs that started after saw that, and
    // every delivery to the webhook has ended.
    await waitFor(
      "the expired session marked handled",
      async () => (await database().prisma.session.count({ where: { credentialId, keepaliveAt: null } })) === 0,
    );
    await maintenanceRunsSince("keepalive", Date.now(), 2);
    await settled(credentialId, hook.body.id);
    expect(eventsOf("session.expired", credentialId)).toHaveLength(1);
  });
});
