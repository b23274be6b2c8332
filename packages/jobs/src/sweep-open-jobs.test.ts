import { UnrecoverableError, Worker, type Queue } from "bullmq";
import { loadConfig, type Config } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { deleteRedisPrefix, freshTestDatabase, REDIS_URL } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { AUTH_QUEUE, createAuthQueue, createRedis, createWebhookQueue, flightTtlMs, redisReady, SessionCache, SingleFlight, type AuthJobPayload } from "@authsvc/queue";
import { AuthJobs } from "./auth-jobs";

let config: Config;
let db: Database;
let redis: ReturnType<typeof createRedis>;
let authQueue: Queue<AuthJobPayload>;
let jobs: AuthJobs;
// Past the sweep's grace for jobs just recorded.
const later = () => Date.now() + 10_000;

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_jobs_sweep"));
  db = Database.fromConfig(config, 4);
  redis = createRedis(config.redis.url, "producer", "jobs-sweep-test");
  await redisReady(redis);
  authQueue = createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 1000 });
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
  await deleteRedisPrefix(REDIS_URL, config.redis.prefix);
});

/** A login recorded in the database only (as if Redis had lost its queue entry). */
async function recorded(username: string): Promise<{ orgId: string; id: string }> {
  const org = await db.organizations.create(`Sweep org ${username}`);
  const credential = await db.credentials.ensure({ orgId: org.id, username, loginUrl: "https://a.test/login" });
  const job = await db.authJobs.create({ orgId: org.id, credentialId: credential.id, kind: "login", method: "password", loginUrl: "https://a.test/login", fingerprint: `fp-${username}`, useCache: false, input: { method: "password", password: "pw" } });
  return { orgId: org.id, id: job.id };
}

/** Runs the queue until `id` has failed for good (as when it stalled more than WORKER_MAX_STALLED times). */
async function failInQueue(orgId: string, id: string): Promise<void> {
  const connection = createRedis(config.redis.url, "blocking", "sweep-test-worker");
  const worker = new Worker(AUTH_QUEUE, async (job) => {
    if (job.id === id) throw new UnrecoverableError("job stalled more than allowable limit");
  }, { connection, prefix: config.redis.prefix });
  const failed = new Promise<void>((resolve) => worker.on("failed", (job) => job?.id === id && resolve()));
  await authQueue.add("auth", { authJobId: id, orgId }, { jobId: id });
  await failed;
  await worker.close();
  await connection.quit();
}

describe("the open-jobs sweep", () => {
  it("queues again a queued job the queue lost, and leaves one the queue still holds", async () => {
    const lost = await recorded("lost");
    const held = await recorded("held");
    await authQueue.add("auth", { authJobId: held.id, orgId: held.orgId }, { jobId: held.id });

    await jobs.sweepOpen(later());
    expect(await (await authQueue.getJob(lost.id))?.getState()).toBe("waiting");
    expect(await db.authJobs.find(lost.orgId, lost.id)).toMatchObject({ status: "queued" });
    expect(await (await authQueue.getJob(held.id))?.getState()).toBe("waiting");
    await authQueue.remove(lost.id);
    await authQueue.remove(held.id);
  });

  it("ends a job the queue failed without its record being ended: login_unconfirmed once its password was submitted", async () => {
    const plain = await recorded("failed-plain");
    const submitted = await recorded("failed-submitted");
    await db.authJobs.claim(plain.orgId, plain.id, 1);
    const { run } = (await db.authJobs.claim(submitted.orgId, submitted.id, 1))!;
    expect(await db.authJobs.markSubmitted(submitted.id, run)).toBe(true);
    await failInQueue(plain.orgId, plain.id);
    await failInQueue(submitted.orgId, submitted.id);

    await jobs.sweepOpen(later());
    expect(await db.authJobs.find(plain.orgId, plain.id)).toMatchObject({ status: "failed", errorCode: "internal_error" });
    expect(await db.authJobs.find(submitted.orgId, submitted.id)).toMatchObject({ status: "failed", errorCode: "login_unconfirmed" });
  });

  it("lets only a job's newest run mark its submit: a run taken over while it was stalled must not submit", async () => {
    const job = await recorded("taken-over");
    const first = (await db.authJobs.claim(job.orgId, job.id, 1))!.run;
    const second = (await db.authJobs.claim(job.orgId, job.id, 1))!.run;
    expect(second).toBe(first + 1);
    expect(await db.authJobs.markSubmitted(job.id, first)).toBe(false);
    expect(await db.authJobs.markSubmitted(job.id, second)).toBe(true);
  });

  it("ends a running job the queue lost only once it outlived the longest a job can live: its worker may still run it", async () => {
    const running = await recorded("running-lost");
    await db.authJobs.claim(running.orgId, running.id, 1);

    await jobs.sweepOpen(later());
    expect(await db.authJobs.find(running.orgId, running.id)).toMatchObject({ status: "running" });
    await jobs.sweepOpen(Date.now() + flightTtlMs(config) + 10_000);
    expect(await db.authJobs.find(running.orgId, running.id)).toMatchObject({ status: "failed", errorCode: "internal_error" });
  });
});
