import type { Queue } from "bullmq";
import type { SessionResponse } from "@authsvc/contracts";
import { loadConfig, type Config } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { freshTestDatabase } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { createAuthQueue, createRedis, createWebhookQueue, redisReady, SessionCache, SingleFlight, type AuthJobPayload } from "@authsvc/queue";
import { AuthJobs } from "./auth-jobs";
import { JobTakenOver } from "./open-job";

// A job's end is written by the run that holds it: a run that stalled past its lock while another worker
// took the job over writes nothing — no session, no requeue, no failure — and the success's writes land
// once, together, however often they are tried.
let config: Config;
let db: Database;
let redis: ReturnType<typeof createRedis>;
let authQueue: Queue<AuthJobPayload>;
let jobs: AuthJobs;

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_jobs_finish"));
  db = Database.fromConfig(config, 4);
  redis = createRedis(config.redis.url, "producer", "jobs-finish-test");
  await redisReady(redis);
  authQueue = createAuthQueue(redis, config.redis.prefix, { attempts: 3, backoffMs: 100 });
  jobs = new AuthJobs({
    config,
    db,
    authQueue,
    cache: new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing))),
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue: createWebhookQueue(redis, config.redis.prefix, config.webhooks),
    log: createLogger("test", "silent"),
  });
});
afterAll(async () => {
  await authQueue.close();
  await redis.quit();
  await db.close();
});

const state = { cookies: [], origins: [], storageState: { cookies: [], origins: [] } } as unknown as SessionResponse;
const signedIn = { session: state, source: "detected" as const, changedFlow: null };

/** A queued login job, then two runs of it: the first stalled, the second took it over. */
async function takenOver(username: string) {
  const org = await db.organizations.create(`Finish org ${username}`);
  const cred = await db.credentials.ensure({ orgId: org.id, loginUrl: "https://a.test/login", username });
  const job = await db.authJobs.create({ orgId: org.id, credentialId: cred.id, kind: "login", method: "password", loginUrl: "https://a.test/login", fingerprint: `fp-${username}`, useCache: true, input: { method: "password", password: "pw" } });
  const stalled = await jobs.open(org.id, job.id, 1);
  const newer = await jobs.open(org.id, job.id, 2);
  const sessions = () => db.prisma.session.count({ where: { credentialId: cred.id } });
  return { org, cred, job, stalled, newer, sessions };
}

describe("a job's end, written by the run that holds it", () => {
  it("stores nothing of a stalled run's success; the newer run's success stands", async () => {
    const { org, job, stalled, newer, sessions } = await takenOver("stale-success");
    expect([stalled.run, newer.run]).toEqual([1, 2]);
    await expect(jobs.succeed(stalled, signedIn)).rejects.toBeInstanceOf(JobTakenOver);
    expect(await sessions()).toBe(0);
    const { sessionId } = await jobs.succeed(newer, signedIn);
    expect(await db.authJobs.find(org.id, job.id)).toMatchObject({ status: "succeeded", sessionId, attempts: 2 });
    expect(await sessions()).toBe(1);
  });

  it("stores one session when the success is written again after its writes landed (an answer lost with the connection)", async () => {
    const { newer, sessions } = await takenOver("written-twice");
    const first = await jobs.succeed(newer, signedIn);
    const again = await jobs.succeed(newer, signedIn);
    expect(again.sessionId).toBe(first.sessionId);
    expect(await sessions()).toBe(1);
  });

  it("neither requeues nor fails the job for a stalled run, nor records its failure on the credential", async () => {
    const { org, cred, job, stalled } = await takenOver("stale-failure");
    const transient = { code: "target_unreachable", message: "HTTP 503", retryable: true, submitted: false };
    expect(await jobs.fail(stalled, transient, 3)).toBe("stale");
    expect(await jobs.fail(stalled, { ...transient, code: "invalid_credentials", retryable: false }, 3)).toBe("stale");
    expect(await db.authJobs.find(org.id, job.id)).toMatchObject({ status: "running", attempts: 2, errorCode: null, finishedAt: null });
    expect((await db.credentials.find(org.id, cred.id))?.lastErrorCode).toBeNull();
  });
});
