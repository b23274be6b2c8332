import { hostname } from "node:os";
import { Worker, type Job, type Processor } from "bullmq";
import { queuePrefix, type RedisClient } from "@authsvc/queue";
import type { Logger } from "@authsvc/logging";
import type { WorkerMetrics } from "../worker-metrics";

export interface ProcessorSpec<T = unknown> {
  queue: string;
  concurrency: number;
  process: Processor<T>;
  /** Called once a job failed for good (no attempt left, or unrecoverable), whoever threw. */
  onFinalFailure?: (job: Job<T>, err: Error) => Promise<void>;
}

/**
 * How a dead worker's jobs are taken over (BullMQ's stalled-job detection). A worker renews its claim on a
 * running job every `lockMs / 2`; once a claim has lapsed, the next check (every `stalledCheckMs`, by any
 * worker) puts the job back in the queue, at most `maxStalled` times. So a job whose worker died runs again
 * within `lockMs + stalledCheckMs` (40 s by default); one that had submitted its password then ends as
 * `login_unconfirmed` instead (packages/jobs open-job). A live worker's claim outlasts a Redis failover the
 * service waits out: it is renewed every `lockRenewMs` (see `lockRenewMs` in @authsvc/config).
 */
export interface StallPolicy {
  lockMs: number;
  lockRenewMs: number;
  stalledCheckMs: number;
  maxStalled: number;
}

/**
 * Every queue this process consumes is registered here, so each gets the same treatment: one blocking
 * connection, the same metrics (jobs by queue and outcome), the same logging of errors, stalls and final
 * failures, and one `close` for shutdown (lets active jobs finish).
 */
export function registerProcessors(
  deps: { connection: RedisClient; prefix: string; log: Logger; metrics: WorkerMetrics; stalls: StallPolicy },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- specs of different job data, one list
  specs: ProcessorSpec<any>[],
) {
  const { connection, prefix, log, metrics, stalls } = deps;
  // Stored on every job this process runs (BullMQ's processedBy): which pod ran it, for operators and fault tests.
  const name = `${hostname()}:${process.pid}`;
  const workers = specs.map((spec) => {
    const worker = new Worker(spec.queue, spec.process, {
      connection,
      prefix: queuePrefix(prefix, spec.queue),
      name,
      concurrency: spec.concurrency,
      lockDuration: stalls.lockMs,
      lockRenewTime: stalls.lockRenewMs,
      stalledInterval: stalls.stalledCheckMs,
      maxStalledCount: stalls.maxStalled,
    });
    const queue = spec.queue;
    worker.on("error", (err) => log.error({ queue, err: err.message }, "worker error"));
    worker.on("stalled", (jobId) => log.warn({ queue, jobId }, "job stalled; it will run again"));
    worker.on("completed", () => metrics.jobs.inc({ queue, outcome: "completed" }));
    worker.on("failed", (job, err) => {
      const final =
        err.name === "UnrecoverableError" || (job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1));
      metrics.jobs.inc({ queue, outcome: final ? "failed" : "retried" });
      if (!job || !final || !spec.onFinalFailure) return;
      spec
        .onFinalFailure(job, err)
        .catch((e) => log.error({ queue, jobId: job.id, err: String(e) }, "could not end a failed job"));
    });
    return worker;
  });
  return {
    name,
    workers,
    /** Whether every processor is taking jobs (the readiness probe). */
    running: () => workers.every((w) => w.isRunning()),
    close: () => Promise.all(workers.map((w) => w.close())),
  };
}
