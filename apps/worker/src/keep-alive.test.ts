import { loadConfig, type Config } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { freshTestDatabase } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { createAuthQueue, createRedis, createWebhookQueue, SingleFlight } from "@authsvc/queue";
import { keepAlive, type KeepAliveDeps } from "./keep-alive";

let config: Config;
let db: Database;
let deps: KeepAliveDeps;
let redis: ReturnType<typeof createRedis>;

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_keepalive"));
  db = Database.fromConfig(config, 4);
  redis = createRedis(config.redis.url, "producer", "keep-alive-test");
  deps = {
    config,
    db,
    authQueue: createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 1000 }),
    webhookQueue: createWebhookQueue(redis, config.redis.prefix, config.webhooks),
    flight: new SingleFlight(redis, config.redis.prefix),
    log: createLogger("test", "silent"),
  };
});
afterAll(async () => {
  await deps.authQueue.obliterate({ force: true });
  await Promise.all([deps.authQueue.close(), deps.webhookQueue.close()]);
  await redis.quit();
  await db.close();
});

const state = { cookies: [], origins: [], storageState: { cookies: [], origins: [] } };

/** A credential that logged in, with its newest session (expiring at `expiresAt`) and the job that made it. */
async function loggedIn(orgId: string, username: string, expiresAt: Date) {
  const cred = await db.credentials.ensure({ orgId, loginUrl: "https://a.test/login", username });
  await db.credentials.recordSuccess(orgId, cred.id, { method: "password", password: "pw" }, "https://a.test/login");
  const job = await db.authJobs.create({ orgId, credentialId: cred.id, kind: "login", method: "password", loginUrl: "https://a.test/login", fingerprint: `fp-${username}`, useCache: true, input: {} });
  const sessionId = await db.sessions.create({ orgId, credentialId: cred.id, origin: "https://a.test", state, expiresAt });
  await db.authJobs.succeed(job.id, sessionId, "detected");
  return { credentialId: cred.id, sessionId };
}

describe("keepAlive", () => {
  it("works through every due session batch by batch, and leaves a failing credential's live session for when it ends", async () => {
    const org = await db.organizations.create("Keep-alive org");
    const soon = new Date(Date.now() + 5 * 60_000);
    // A failing credential's sessions come first in expiry order: they must not fill every batch.
    const failing = [];
    for (let i = 0; i < 110; i++) {
      const f = await loggedIn(org.id, `failing-${i}`, new Date(soon.getTime() - 60_000));
      await db.credentials.recordFailure(org.id, f.credentialId, "invalid_credentials");
      failing.push(f);
    }
    for (let i = 0; i < 130; i++) await loggedIn(org.id, `due-${i}`, soon);
    await loggedIn(org.id, "later", new Date(Date.now() + 3 * 3_600_000));

    expect(await keepAlive(deps)).toEqual({ refreshing: 130, expired: 0 });
    const queued = await db.prisma.authJob.findMany({ where: { orgId: org.id, kind: "refresh" }, select: { loginUrl: true } });
    expect(queued).toHaveLength(130);
    expect(new Set(queued.map((q) => q.loginUrl))).toEqual(new Set(["https://a.test/login"]));
    expect(await keepAlive(deps)).toEqual({ refreshing: 0, expired: 0 });
    const failingSessions = await db.prisma.session.findMany({ where: { id: { in: failing.map((f) => f.sessionId) } }, select: { keepaliveAt: true } });
    expect(failingSessions.every((s) => s.keepaliveAt === null)).toBe(true);

    // Once they end, each is reported once.
    await db.prisma.session.updateMany({ where: { id: { in: failing.map((f) => f.sessionId) } }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect(await keepAlive(deps)).toEqual({ refreshing: 0, expired: 110 });
    expect(await keepAlive(deps)).toEqual({ refreshing: 0, expired: 0 });
  });
});
