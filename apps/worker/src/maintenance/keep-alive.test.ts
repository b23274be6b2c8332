import { loadConfig, type Config } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { freshTestDatabase } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { AuthJobs, storedLoginIdentity } from "@authsvc/jobs";
import { createAuthQueue, createRedis, createWebhookQueue, SessionCache, SingleFlight, type AuthJobPayload } from "@authsvc/queue";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import type { Queue } from "bullmq";
import { keepAlive, type KeepAliveDeps } from "./keep-alive";

let config: Config;
let db: Database;
let deps: KeepAliveDeps;
let redis: ReturnType<typeof createRedis>;
let authQueue: Queue<AuthJobPayload>;
let webhookQueue: ReturnType<typeof createWebhookQueue>;
let flight: SingleFlight;

/** The jobs room over a database whose job records cannot be written for the given credentials (as when Postgres drops the connection mid-start). */
function jobsFailingToRecord(failFor: Set<string>): AuthJobs {
  const authJobs = new Proxy(db.authJobs, {
    get(target, prop, receiver) {
      if (prop === "create") {
        return (job: { credentialId: string }, id?: string) =>
          failFor.has(job.credentialId) ? Promise.reject(new Error("connection terminated")) : target.create(job as never, id);
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const failing = Object.assign(Object.create(Object.getPrototypeOf(db)), db, { authJobs }) as Database;
  return new AuthJobs({ config, db: failing, authQueue, cache: new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing))), flight, webhookQueue, log: createLogger("test", "silent") });
}

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_keepalive"));
  db = Database.fromConfig(config, 4);
  redis = createRedis(config.redis.url, "producer", "keep-alive-test");
  authQueue = createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 1000 });
  webhookQueue = createWebhookQueue(redis, config.redis.prefix, config.webhooks);
  flight = new SingleFlight(redis, config.redis.prefix);
  const log = createLogger("test", "silent");
  const cache = new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing)));
  deps = { config, db, jobs: new AuthJobs({ config, db, authQueue, cache, flight, webhookQueue, log }), log };
});
afterAll(async () => {
  await authQueue.obliterate({ force: true });
  await Promise.all([authQueue.close(), webhookQueue.close()]);
  await redis.quit();
  await db.close();
});

const state = { cookies: [], origins: [], storageState: { cookies: [], origins: [] } };

/** A credential that logged in, with its newest session (expiring at `expiresAt`) and the job that made it. */
async function loggedIn(orgId: string, username: string, expiresAt: Date) {
  const cred = await db.credentials.ensure({ orgId, loginUrl: "https://a.test/login", username });
  await db.credentials.recordSuccess(orgId, cred.id, { method: "password", password: "pw" }, "https://a.test/login");
  const job = await db.authJobs.create({ orgId, credentialId: cred.id, kind: "login", method: "password", loginUrl: "https://a.test/login", fingerprint: `fp-${username}`, useCache: true, input: { method: "password" } });
  const sessionId = await db.sessions.create({ orgId, credentialId: cred.id, origin: "https://a.test", state, expiresAt });
  const { run } = (await db.authJobs.claim(orgId, job.id, 1))!;
  await db.authJobs.succeed(job.id, run, sessionId, "detected");
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

  it("rolls back a refresh whose start fails between claim and record: the claim is freed, no job is left, the next run starts it", async () => {
    const org = await db.organizations.create("Keep-alive roll-back org");
    const soon = new Date(Date.now() + 5 * 60_000);
    const broken = await loggedIn(org.id, "broken", soon);
    const fine = await loggedIn(org.id, "fine", soon);

    expect(await keepAlive({ ...deps, jobs: jobsFailingToRecord(new Set([broken.credentialId])) })).toEqual({ refreshing: 1, expired: 0 });
    const refreshes = (credentialId: string) => db.prisma.authJob.findMany({ where: { orgId: org.id, credentialId, kind: "refresh" } });
    expect(await refreshes(fine.credentialId)).toHaveLength(1);
    expect(await refreshes(broken.credentialId)).toHaveLength(0);
    // Nobody joins a job that was never recorded: the key a caller's login of that credential computes is free.
    const credential = (await db.credentials.findMetadata(org.id, broken.credentialId))!;
    const identity = storedLoginIdentity({ loginPage: credential.loginPage, username: credential.username }, (await db.credentials.secret(org.id, broken.credentialId))!);
    const key = deps.jobs.loginKey(org.id, identity);
    expect(await flight.claim(org.id, key, "job_caller", 60_000)).toBeNull();
    await flight.release(org.id, key, "job_caller");
    // Not marked handled: the next run tries it again and starts it.
    const session = await db.prisma.session.findUniqueOrThrow({ where: { id: broken.sessionId }, select: { keepaliveAt: true } });
    expect(session.keepaliveAt).toBeNull();
    expect(await keepAlive(deps)).toEqual({ refreshing: 1, expired: 0 });
    expect(await refreshes(broken.credentialId)).toHaveLength(1);
  });
});
