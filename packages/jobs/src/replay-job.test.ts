import { waitFor } from "@authsvc/waiting";
import { UnrecoverableError, Worker, type Job, type Queue } from "bullmq";
import { loadConfig, type Config } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { deleteRedisPrefix, freshTestDatabase, REDIS_URL } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import {
  AUTH_QUEUE,
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  JobGate,
  redisReady,
  SessionCache,
  SingleFlight,
  type AuthJobPayload,
} from "@authsvc/queue";
import { AuthJobs } from "./auth-jobs";
import { ReplayRefused } from "./replay-job";

let config: Config;
let db: Database;
let redis: ReturnType<typeof createRedis>;
let workerRedis: ReturnType<typeof createRedis>;
let authQueue: Queue<AuthJobPayload>;
let flight: SingleFlight;
let jobs: AuthJobs;
let worker: Worker<AuthJobPayload>;

/** What the next run of each job ends in: the flow is not under test here, the job's life around it is. */
const verdicts = new Map<string, string[]>();
const runs: Array<{ jobId: string; attempt: number }> = [];
const settled = new Map<string, () => void>();

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_jobs_replay"));
  db = Database.fromConfig(config, 4);
  redis = createRedis(config.redis, "producer", "jobs-replay-test");
  workerRedis = createRedis(config.redis, "blocking", "jobs-replay-worker");
  await Promise.all([redisReady(redis), redisReady(workerRedis)]);
  authQueue = createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 100 });
  flight = new SingleFlight(redis, config.redis.prefix);
  jobs = new AuthJobs({
    config,
    db,
    authQueue,
    cache: new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing))),
    flight,
    webhookQueue: createWebhookQueue(redis, config.redis.prefix, config.webhooks),
    log: createLogger("test", "silent"),
  });
  // A worker that runs the real open → fail life of a job, ending it with the verdict the test planned.
  worker = new Worker<AuthJobPayload>(
    AUTH_QUEUE,
    async (job: Job<AuthJobPayload>) => {
      const opened = await jobs.open(job.data.orgId, job.data.authJobId, job.attemptsMade + 1);
      runs.push({ jobId: opened.id, attempt: opened.attempt });
      const code = verdicts.get(opened.id)?.shift() ?? "target_unreachable";
      await jobs.fail(opened, { code, message: `planned ${code}`, retryable: false, submitted: false }, 1);
      settled.get(opened.id)?.();
      throw new UnrecoverableError(code);
    },
    { connection: workerRedis, prefix: authQueue.opts.prefix },
  );
});
afterAll(async () => {
  await worker.close();
  await authQueue.close();
  await redis.quit();
  workerRedis.disconnect();
  await db.close();
  await deleteRedisPrefix(REDIS_URL, config.redis.prefix);
});

/** Starts a login job and waits until the worker failed it for good with `code`. */
async function failedJob(
  username: string,
  code: string,
): Promise<{ jobId: string; orgId: string; fingerprint: string }> {
  const org = await db.organizations.create(`Replay org ${username}`);
  const fingerprint = jobs.loginKey(org.id, {
    loginPage: "https://a.test/login",
    method: "password",
    identifier: username,
    password: "pw-replay-secret",
  });
  const jobId = await jobs.start({
    orgId: org.id,
    kind: "login",
    method: "password",
    loginUrl: "https://a.test/login",
    useCache: true,
    fingerprint,
    credential: { username },
    input: { kind: "login", method: "password", password: "pw-replay-secret" },
  });
  verdicts.set(jobId, [code]);
  await ranTo(jobId, "failed");
  return { jobId, orgId: org.id, fingerprint };
}

async function ranTo(jobId: string, status: "failed" | "succeeded"): Promise<void> {
  // The queue marks its job failed just after the record; both must be done before the next step.
  const ended = async () => {
    const row = await db.prisma.authJob.findUnique({ where: { id: jobId } });
    const job = await authQueue.getJob(jobId);
    return { row, job, done: row?.status === status && !!job?.finishedOn };
  };
  await waitFor(
    async () => {
      const { row, job } = await ended();
      return `job ${jobId} to end ${status}: its record is ${row?.status}, its queue job ${job ? await job.getState() : "gone"}`;
    },
    async () => (await ended()).done,
    { timeoutMs: 45_000, everyMs: 25 },
  );
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "replayed",
    (err) => (err instanceof ReplayRefused ? err.code : `unexpected ${String(err)}`),
  );

describe("replayJob", () => {
  it("runs a failed job again under the same id, from its kept input, and its attempts grow", async () => {
    const { jobId, orgId, fingerprint } = await failedJob("ada", "target_unreachable");
    const before = await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId }, omit: { input: false } });
    expect(before).toMatchObject({ status: "failed", errorCode: "target_unreachable", attempts: 1 });
    expect(before.input).not.toBeNull();
    expect(before.input).not.toContain("pw-replay-secret");

    verdicts.set(jobId, ["timeout"]);
    expect(await jobs.replay(jobId, { by: "staff@example.test" })).toEqual({ jobId, orgId });
    await ranTo(jobId, "failed");
    const after = await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(after).toMatchObject({
      status: "failed",
      errorCode: "timeout",
      attempts: 2,
      replayedBy: "staff@example.test",
    });
    expect(after.replayedAt).toBeInstanceOf(Date);
    expect(runs.filter((r) => r.jobId === jobId)).toHaveLength(2);
    expect(await jobs.view(orgId, jobId)).toEqual({
      jobId,
      status: "failed",
      error: { code: "timeout", message: "planned timeout" },
      eventsUrl: `/v1/jobs/${jobId}/events`,
    });
    // The replay's claim ended with it: a new login of the same identity runs a job of its own.
    expect(await flight.claim(orgId, fingerprint, "job_next", 60_000)).toBeNull();
    await flight.release(orgId, fingerprint, "job_next");

    // And again: each replay is one more run.
    await jobs.replay(jobId);
    await ranTo(jobId, "failed");
    expect((await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId } })).attempts).toBe(3);
  });

  it("replays a job whose password was refused only with an explicit confirmation", async () => {
    for (const code of ["invalid_credentials", "account_locked", "verification_failed"]) {
      const { jobId } = await failedJob(`refused-${code}`, code);
      expect(await refusal(jobs.replay(jobId))).toBe("needs_confirmation");
      expect(await refusal(jobs.replay(jobId, { confirmRefusedPassword: false }))).toBe("needs_confirmation");
      expect((await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("failed");
      verdicts.set(jobId, ["invalid_credentials"]);
      expect(await refusal(jobs.replay(jobId, { confirmRefusedPassword: true }))).toBe("replayed");
      await ranTo(jobId, "failed");
      expect((await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId } })).attempts).toBe(2);
    }
    // A site that asked for a factor we lacked took the password: no confirmation needed.
    const { jobId } = await failedJob("mfa", "mfa_required");
    expect(await refusal(jobs.replay(jobId))).toBe("replayed");
    await ranTo(jobId, "failed");
  });

  it("refuses a job that is missing, not failed, without its input, or whose login another job runs", async () => {
    expect(await refusal(jobs.replay("job_doesnotexist000000000"))).toBe("not_found");

    const { jobId, orgId, fingerprint } = await failedJob("busy", "target_unreachable");
    const outcome = {
      status: true,
      errorCode: true,
      errorMessage: true,
      startedAt: true,
      finishedAt: true,
      durationMs: true,
      replayedAt: true,
      replayedBy: true,
      attempts: true,
    } as const;
    const before = await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId }, select: outcome });
    await flight.claim(orgId, fingerprint, "job_someoneelse", 60_000);
    expect(await refusal(jobs.replay(jobId, { by: "staff@example.test" }))).toBe("busy");
    // Refused, the record is the failure it was: its times are not the refused replay's.
    expect(await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId }, select: outcome })).toEqual(before);
    expect(await flight.claim(orgId, fingerprint, "job_other", 60_000)).toBe("job_someoneelse");
    await flight.release(orgId, fingerprint, "job_someoneelse");

    // A job still queued (its claim held by itself) is not a failed one.
    await db.prisma.authJob.update({ where: { id: jobId }, data: { status: "queued" } });
    expect(await refusal(jobs.replay(jobId))).toBe("not_failed");
    // A record from before inputs were kept on failure.
    await db.prisma.authJob.update({ where: { id: jobId }, data: { status: "failed", input: null } });
    expect(await refusal(jobs.replay(jobId))).toBe("input_gone");
  });

  it("queues a replay through its organization's concurrency cap, like a new job", async () => {
    const { jobId, orgId } = await failedJob("capped", "target_unreachable");
    // The org has one slot, and another job of it holds it.
    const capped = new AuthJobs({
      ...jobs["deps"],
      config: { ...config, worker: { ...config.worker, orgMaxRunningJobs: 1 } },
    });
    const gate = new JobGate(redis, authQueue, { perOrg: 1, perSite: 0 });
    // This file's worker skips the gate; a gated one would have ended the first run's admission when it took it.
    await gate.forget({ jobId, orgId });
    const holder = { jobId: "job_holder", orgId };
    expect(await gate.acquire(holder)).toBe(true);
    verdicts.set(jobId, ["timeout"]);
    await capped.replay(jobId);
    expect(await (await authQueue.getJob(jobId))!.getState()).toBe("delayed");
    // The slot frees: the replay is woken and runs.
    await gate.release(holder);
    expect(await (await authQueue.getJob(jobId))!.getState()).not.toBe("delayed");
    await ranTo(jobId, "failed");
    expect(await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      errorCode: "timeout",
      attempts: 2,
    });
  });

  it("lets only one of two simultaneous replays run", async () => {
    const { jobId } = await failedJob("twice", "target_unreachable");
    const answers = await Promise.all([refusal(jobs.replay(jobId)), refusal(jobs.replay(jobId))]);
    expect(answers.sort()).toEqual(["not_failed", "replayed"]);
    await ranTo(jobId, "failed");
    expect(runs.filter((r) => r.jobId === jobId)).toHaveLength(2);
  });

  it("does not reopen a failure older than the job's newest (a replay read before another replay's whole run)", async () => {
    const { jobId } = await failedJob("stale", "target_unreachable");
    await jobs.replay(jobId);
    await ranTo(jobId, "failed");
    const newest = (await db.authJobs.findForReplay(jobId))!;
    // The first failure is what a slow second replay read; the job has failed again since.
    expect(await db.jobLifecycle.reopenForReplay({ ...newest, attempts: 1 }, null)).toBeNull();
    // A failure that ended without a run (the sweep's), at the same attempt: it ended at another moment.
    expect(
      await db.jobLifecycle.reopenForReplay(
        { ...newest, finishedAt: new Date(newest.finishedAt!.getTime() - 1) },
        null,
      ),
    ).toBeNull();
    expect((await db.prisma.authJob.findUniqueOrThrow({ where: { id: jobId } })).status).toBe("failed");
    // The newest failure reopens, and an undone reopen is that failure again; only that reopen is undone.
    const reopenedAt = (await db.jobLifecycle.reopenForReplay(newest, "staff@example.test"))!;
    expect(reopenedAt).toBeInstanceOf(Date);
    expect(await db.jobLifecycle.undoReplay(newest, new Date(reopenedAt.getTime() - 1))).toBe(false);
    expect(await db.jobLifecycle.undoReplay(newest, reopenedAt)).toBe(true);
    expect(await db.authJobs.findForReplay(jobId)).toEqual(newest);
  });
});
