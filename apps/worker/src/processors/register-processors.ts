import { Worker, type Job, type Processor } from "bullmq";
import type { Redis } from "ioredis";
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
 * Every queue this process consumes is registered here, so each gets the same treatment: one blocking
 * connection, the same metrics (jobs by queue and outcome), the same logging of errors, stalls and final
 * failures, and one `close` for shutdown (lets active jobs finish).
 */
export function registerProcessors(deps: { connection: Redis; prefix: string; log: Logger; metrics: WorkerMetrics }, specs: ProcessorSpec<any>[]) {
  const { connection, prefix, log, metrics } = deps;
  const workers = specs.map((spec) => {
    const worker = new Worker(spec.queue, spec.process, { connection, prefix, concurrency: spec.concurrency });
    const queue = spec.queue;
    worker.on("error", (err) => log.error({ queue, err: err.message }, "worker error"));
    worker.on("stalled", (jobId) => log.warn({ queue, jobId }, "job stalled; it will run again"));
    worker.on("completed", () => metrics.jobs.inc({ queue, outcome: "completed" }));
    worker.on("failed", (job, err) => {
      const final = err.name === "UnrecoverableError" || (job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1));
      metrics.jobs.inc({ queue, outcome: final ? "failed" : "retried" });
      if (!job || !final || !spec.onFinalFailure) return;
      spec.onFinalFailure(job, err).catch((e) => log.error({ queue, jobId: job.id, err: String(e) }, "could not end a failed job"));
    });
    return worker;
  });
  return {
    workers,
    /** Whether every processor is taking jobs (the readiness probe). */
    running: () => workers.every((w) => w.isRunning()),
    close: () => Promise.all(workers.map((w) => w.close())),
  };
}
