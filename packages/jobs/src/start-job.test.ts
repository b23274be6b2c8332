import type { Queue } from "bullmq";
import { loadConfig, type Config } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { deleteRedisPrefix, freshTestDatabase, REDIS_URL } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import {
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  redisReady,
  SessionCache,
  SingleFlight,
  type AuthJobPayload,
} from "@authsvc/queue";
import { AuthJobs } from "./auth-jobs";
import type { StartJob } from "./start-job";

let config: Config;
let db: Database;
let redis: ReturnType<typeof createRedis>;
let authQueue: Queue<AuthJobPayload>;
let flight: SingleFlight;
let jobs: AuthJobs;

function jobsWith(overrides: { db?: Database; authQueue?: Queue<AuthJobPayload> }): AuthJobs {
  return new AuthJobs({
    config,
    db: overrides.db ?? db,
    authQueue: overrides.authQueue ?? authQueue,
    cache: new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing))),
    flight,
    webhookQueue: createWebhookQueue(redis, config.redis.prefix, config.webhooks),
    log: createLogger("test", "silent"),
  });
}

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_jobs_start"));
  db = Database.fromConfig(config, 4);
  redis = createRedis(config.redis, "producer", "jobs-start-test");
  await redisReady(redis);
  authQueue = createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 1000 });
  flight = new SingleFlight(redis, config.redis.prefix);
  jobs = jobsWith({});
});
afterAll(async () => {
  await authQueue.close();
  await redis.quit();
  await db.close();
  await deleteRedisPrefix(REDIS_URL, config.redis.prefix);
});

async function loginJob(username: string): Promise<StartJob> {
  const org = await db.organizations.create(`Start org ${username}`);
  const identity = { loginPage: "https://a.test/login", method: "password", identifier: username, password: "pw" };
  return {
    orgId: org.id,
    kind: "login",
    method: "password",
    loginUrl: "https://a.test/login",
    useCache: true,
    fingerprint: jobs.loginKey(org.id, identity),
    credential: { username },
    input: { kind: "login", method: "password", password: "pw" },
  };
}

describe("AuthJobs.start", () => {
  it("records and queues a job once: an identical start joins it", async () => {
    const job = await loginJob("ada");
    const first = await jobs.start(job);
    expect(await jobs.start(job)).toBe(first);
    expect(await jobs.view(job.orgId, first)).toEqual({
      jobId: first,
      status: "queued",
      eventsUrl: `/v1/jobs/${first}/events`,
    });
    // Ids and the site's host (for its concurrency cap) only: never a secret.
    expect((await authQueue.getJob(first))?.data).toEqual({ authJobId: first, orgId: job.orgId, site: "a.test" });
  });

  it("ends the record and frees the claim when the job cannot be queued", async () => {
    const job = await loginJob("bob");
    // Redis drops the queue's connection (the producer does not buffer commands while it is away). The
    // connection waits a second for Redis to come back, not the default failover wait: what is tested is
    // what the start leaves behind once it gives up, not how long it waited.
    const lost = createRedis({ ...config.redis, failoverWaitMs: 1000 }, "producer", "lost");
    await redisReady(lost);
    const unreachable = createAuthQueue(lost, config.redis.prefix, { attempts: 1, backoffMs: 1000 });
    unreachable.on("error", () => undefined); // expected: the queue reports the lost connection
    lost.disconnect();
    await expect(jobsWith({ authQueue: unreachable }).start(job)).rejects.toThrow();
    const [record] = await db.prisma.authJob.findMany({ where: { orgId: job.orgId } });
    expect(record).toMatchObject({ status: "failed", errorCode: "service_unavailable" });
    // The next start runs a job of its own rather than joining the one that never ran.
    const next = await jobs.start(job);
    expect(next).not.toBe(record!.id);
    expect((await jobs.view(job.orgId, next))?.status).toBe("queued");
  });

  it("frees the claim and leaves no record when the record cannot be written", async () => {
    const job = await loginJob("cy");
    const noCredential = { ...job, credential: { id: "cred_doesnotexist0000000000" } };
    await expect(jobs.start(noCredential)).rejects.toThrow();
    expect(await db.prisma.authJob.count({ where: { orgId: job.orgId } })).toBe(0);
    expect(await flight.claim(job.orgId, job.fingerprint, "job_other", 60_000)).toBeNull();
  });
});
