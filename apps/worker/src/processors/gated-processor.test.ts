import { waitFor } from "@authsvc/waiting";
import { Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { createLogger } from "@authsvc/logging";
import { AUTH_QUEUE, JobGate, createAuthQueue, type AuthJobPayload } from "@authsvc/queue";
import { createWorkerMetrics } from "../worker-metrics";
import { gatedProcessor } from "./gated-processor";

// Not from @authsvc/devstack: importing it loads the fixture sites, seconds this test does not need.
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `gated-processor-test-${process.pid}`;
const producer = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const blocking = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
const queue = createAuthQueue(producer, PREFIX, { attempts: 3, backoffMs: 0 });
let worker: Worker<AuthJobPayload> | undefined;

afterAll(async () => {
  await worker?.close();
  await queue.close();
  const keys = await producer.keys(`${PREFIX}:*`);
  if (keys.length) await producer.del(...keys);
  producer.disconnect();
  blocking.disconnect();
});

describe("gatedProcessor", () => {
  it("runs an org's jobs one at a time under a cap of one, wakes parked jobs without their safety delay, and spends no attempt on waiting", async () => {
    // A recheck far beyond the test: a parked job can only come back through a promotion.
    const gate = new JobGate(producer, queue, { perOrg: 1, perSite: 0 }, { leaseMs: 30_000, recheckMs: 120_000 });
    const metrics = createWorkerMetrics();
    const running = new Map<string, number>();
    const maxRunning = new Map<string, number>();
    const finished: string[] = [];
    // Org X's jobs hold their slot until org Y's job has started: Y cannot have waited for X's first job.
    let yStarted!: () => void;
    const y1Started = new Promise<void>((r) => (yStarted = r));
    let orgXRunningWhenYStarted: number | undefined;
    const run = async (job: Job<AuthJobPayload>) => {
      const { orgId, authJobId } = job.data;
      running.set(orgId, (running.get(orgId) ?? 0) + 1);
      maxRunning.set(orgId, Math.max(maxRunning.get(orgId) ?? 0, running.get(orgId)!));
      if (authJobId === "y1") {
        orgXRunningWhenYStarted = running.get("org_x") ?? 0;
        yStarted();
      } else await y1Started;
      // Some work, so that two of an org's jobs let through together would overlap (a deliberate pause:
      // no assertion waits for it or depends on its length).
      await new Promise((r) => setTimeout(r, 300));
      running.set(orgId, running.get(orgId)! - 1);
      finished.push(authJobId);
      return { sessionId: `ses_${authJobId}` };
    };
    worker = new Worker<AuthJobPayload>(
      AUTH_QUEUE,
      gatedProcessor(gate, { log: createLogger("test", "silent"), metrics }, run),
      { connection: blocking, prefix: queue.opts.prefix, concurrency: 3 },
    );
    // Queued the plain way (not through the gateway's admission), so the worker parks them itself.
    const ids = ["x1", "x2", "x3", "y1"];
    for (const id of ids)
      await queue.add("auth", { authJobId: id, orgId: id.startsWith("x") ? "org_x" : "org_y" }, { jobId: id });

    // A bound only for a broken gate; a working one finishes in about a second.
    await waitFor(
      () => `every job to finish; finished: ${finished.join(", ")}`,
      () => finished.length === ids.length,
      {
        timeoutMs: 50_000,
        everyMs: 50,
      },
    );
    expect(maxRunning.get("org_x")).toBe(1);
    expect([...finished].sort()).toEqual([...ids].sort());
    // Org Y's job did not wait for org X's: it started while the first of them ran.
    expect(orgXRunningWhenYStarted).toBe(1);
    expect(
      Number(
        (await metrics.registry.getSingleMetricAsString("authsvc_worker_jobs_parked_total")).match(/ (\d+)$/m)?.[1],
      ),
    ).toBeGreaterThan(0);
    // Each job's wait is observed once, at its first run, however often it was parked before.
    expect(await metrics.registry.getSingleMetricAsString("authsvc_queue_wait_seconds")).toMatch(
      /^authsvc_queue_wait_seconds_count\{queue="auth"\} 4$/m,
    );
    for (const id of ids) {
      const job = (await queue.getJob(id))!;
      expect(await job.getState()).toBe("completed");
      expect(job.attemptsMade).toBe(1);
    }
  });
});
