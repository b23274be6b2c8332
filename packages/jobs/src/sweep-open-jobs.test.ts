import { UnrecoverableError, Worker } from "bullmq";
import { AUTH_QUEUE, createRedis, flightTtlMs, regionQueue, WorkerRegions } from "@authsvc/queue";
import { useJobsEnv } from "./testing/jobs-env";

// Past the sweep's grace for jobs just recorded.
const later = () => Date.now() + 10_000;

const env = useJobsEnv("unit_jobs_sweep", { attempts: 1, backoffMs: 1000 });

/** A login recorded in the database only (as if Redis had lost its queue entry). */
async function recorded(username: string): Promise<{ orgId: string; id: string }> {
  const org = await env.db.organizations.create(`Sweep org ${username}`);
  const credential = await env.db.credentials.ensure({ orgId: org.id, username, loginUrl: "https://a.test/login" });
  const job = await env.db.jobLifecycle.create({
    orgId: org.id,
    credentialId: credential.id,
    kind: "login",
    method: "password",
    loginUrl: "https://a.test/login",
    fingerprint: `fp-${username}`,
    useCache: false,
    input: { kind: "login", method: "password", password: "pw" },
  });
  return { orgId: org.id, id: job.id };
}

/** Runs the queue until `id` has failed for good (as when it stalled more than WORKER_MAX_STALLED times). */
async function failInQueue(orgId: string, id: string): Promise<void> {
  const connection = createRedis(env.config.redis, "blocking", "sweep-test-worker");
  const worker = new Worker(
    AUTH_QUEUE,
    async (job) => {
      if (job.id === id) throw new UnrecoverableError("job stalled more than allowable limit");
    },
    { connection, prefix: env.authQueue.opts.prefix },
  );
  const failed = new Promise<void>((resolve) => worker.on("failed", (job) => job?.id === id && resolve()));
  await env.authQueue.add("auth", { authJobId: id, orgId }, { jobId: id });
  await failed;
  await worker.close();
  await connection.quit();
}

describe("the open-jobs sweep", () => {
  it("ends a queued job of a region with no worker once REGION_WAIT_MS has passed, and leaves one whose region has a worker", async () => {
    const orphan = await recorded("region-orphan");
    const served = await recorded("region-served");
    await env.db.prisma.authJob.updateMany({ where: { id: orphan.id }, data: { region: "gone" } });
    await env.db.prisma.authJob.updateMany({ where: { id: served.id }, data: { region: "here" } });
    await regionQueue(env.authQueue, "gone").add(
      "auth",
      { authJobId: orphan.id, orgId: orphan.orgId, region: "gone" },
      { jobId: orphan.id },
    );
    await regionQueue(env.authQueue, "here").add(
      "auth",
      { authJobId: served.id, orgId: served.orgId, region: "here" },
      { jobId: served.id },
    );
    const worker = new WorkerRegions(env.redis, env.config.redis.prefix);
    await worker.announce("pod-here", ["here"]);
    try {
      await env.jobs.sweepOpen(Date.now() + env.config.worker.regionWaitMs + 10_000);
    } finally {
      await worker.withdraw();
    }
    expect(await env.db.authJobs.find(orphan.orgId, orphan.id)).toMatchObject({
      status: "failed",
      errorCode: "region_unavailable",
    });
    expect(await regionQueue(env.authQueue, "gone").getJob(orphan.id)).toBeUndefined();
    expect(await env.db.authJobs.find(served.orgId, served.id)).toMatchObject({ status: "queued" });
    expect(await (await regionQueue(env.authQueue, "here").getJob(served.id))?.getState()).toBe("waiting");
    await regionQueue(env.authQueue, "here").remove(served.id);
  });

  it("queues again a queued job the queue lost, and leaves one the queue still holds", async () => {
    const lost = await recorded("lost");
    const held = await recorded("held");
    await env.authQueue.add("auth", { authJobId: held.id, orgId: held.orgId }, { jobId: held.id });

    await env.jobs.sweepOpen(later());
    // Queued again through the gate, with its place in its org's line as its priority.
    expect(await (await env.authQueue.getJob(lost.id))?.getState()).toBe("prioritized");
    expect(await env.db.authJobs.find(lost.orgId, lost.id)).toMatchObject({ status: "queued" });
    expect(await (await env.authQueue.getJob(held.id))?.getState()).toBe("waiting");
    await env.authQueue.remove(lost.id);
    await env.authQueue.remove(held.id);
  });

  it("ends a job the queue failed without its record being ended: login_unconfirmed once its password was submitted", async () => {
    const plain = await recorded("failed-plain");
    const submitted = await recorded("failed-submitted");
    await env.db.jobLifecycle.claim(plain.orgId, plain.id, 1);
    const { run } = (await env.db.jobLifecycle.claim(submitted.orgId, submitted.id, 1))!;
    expect(await env.db.jobLifecycle.markSubmitted(submitted.id, run)).toBe(true);
    await failInQueue(plain.orgId, plain.id);
    await failInQueue(submitted.orgId, submitted.id);

    await env.jobs.sweepOpen(later());
    expect(await env.db.authJobs.find(plain.orgId, plain.id)).toMatchObject({
      status: "failed",
      errorCode: "internal_error",
    });
    expect(await env.db.authJobs.find(submitted.orgId, submitted.id)).toMatchObject({
      status: "failed",
      errorCode: "login_unconfirmed",
    });
  });

  it("leaves a replay alone while it takes the job's earlier run out of the queue", async () => {
    const job = await recorded("replayed");
    await env.db.jobLifecycle.claim(job.orgId, job.id, 1);
    await failInQueue(job.orgId, job.id);
    await env.db.prisma.authJob.update({
      where: { id: job.id },
      data: { status: "failed", errorCode: "invalid_credentials", errorMessage: "refused", finishedAt: new Date() },
    });
    // A replay has reopened the job; the queue still holds the earlier run, failed.
    expect(
      await env.db.jobLifecycle.reopenForReplay((await env.db.authJobs.findForReplay(job.id))!, "staff@example.test"),
    ).toBeInstanceOf(Date);
    await env.jobs.sweepOpen(later());
    expect(await env.db.authJobs.find(job.orgId, job.id)).toMatchObject({ status: "queued" });
    await env.authQueue.remove(job.id);
  });

  it("lets only a job's newest run mark its submit: a run taken over while it was stalled must not submit", async () => {
    const job = await recorded("taken-over");
    const first = (await env.db.jobLifecycle.claim(job.orgId, job.id, 1))!.run;
    const second = (await env.db.jobLifecycle.claim(job.orgId, job.id, 1))!.run;
    expect(second).toBe(first + 1);
    expect(await env.db.jobLifecycle.markSubmitted(job.id, first)).toBe(false);
    expect(await env.db.jobLifecycle.markSubmitted(job.id, second)).toBe(true);
  });

  it("ends a running job the queue lost only once it outlived the longest a job can live: its worker may still run it", async () => {
    const running = await recorded("running-lost");
    await env.db.jobLifecycle.claim(running.orgId, running.id, 1);

    await env.jobs.sweepOpen(later());
    expect(await env.db.authJobs.find(running.orgId, running.id)).toMatchObject({ status: "running" });
    await env.jobs.sweepOpen(Date.now() + flightTtlMs(env.config) + 10_000);
    expect(await env.db.authJobs.find(running.orgId, running.id)).toMatchObject({
      status: "failed",
      errorCode: "internal_error",
    });
  });
});
