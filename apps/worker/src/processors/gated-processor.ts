import { DelayedError, type Job } from "bullmq";
import type { Logger } from "@authsvc/logging";
import type { AuthJobPayload, GateSlot, JobGate } from "@authsvc/queue";
import type { WorkerMetrics } from "../worker-metrics";

/**
 * Runs an auth job only once it holds a slot under its organization's and its site's concurrency caps (the
 * gate), before the job is opened: a job over a cap is parked as a delayed job — which costs no attempt and
 * leaves its record `queued`, nothing was typed — and promoted when a slot frees. While the job runs its
 * slots are renewed; a worker that dies stops renewing, and they expire.
 */
export function gatedProcessor<R>(
  gate: JobGate,
  { log, metrics }: { log: Logger; metrics: WorkerMetrics },
  process: (job: Job<AuthJobPayload>, token?: string) => Promise<R>,
) {
  return async function processGatedJob(job: Job<AuthJobPayload>, token?: string): Promise<R> {
    const { authJobId: jobId, orgId, site } = job.data;
    const slot: GateSlot = { jobId, orgId, site };
    if (!(await gate.acquire(slot))) {
      await job.moveToDelayed(gate.recheckAt(), token);
      metrics.parkedJobs.inc();
      log.debug({ jobId, orgId, site }, "job waits for a slot under its org or site cap");
      // A slot that freed while this job was being parked could not promote it yet: look again (if this
      // fails, the parked job looks again itself after its delay).
      await gate
        .promoteWaiting(slot)
        .catch((err: unknown) => log.warn({ jobId, err: String(err) }, "could not promote waiting jobs"));
      throw new DelayedError();
    }
    // Its first run (a retry's wait is its backoff): from being queued to here, parked time included.
    if (job.attemptsMade === 0)
      metrics.queueWait.observe({ queue: job.queueName }, Math.max(0, Date.now() - job.timestamp) / 1000);
    const renew = setInterval(
      () => {
        gate
          .renew(slot)
          .catch((err: unknown) => log.warn({ jobId, err: String(err) }, "could not renew a job's concurrency slot"));
      },
      Math.max(1000, Math.floor(gate.timing.leaseMs / 3)),
    );
    try {
      return await process(job, token);
    } finally {
      clearInterval(renew);
      // If this fails (Redis away) the slots expire with their lease, and waiting jobs wake on their own.
      await gate
        .release(slot)
        .catch((err: unknown) => log.warn({ jobId, err: String(err) }, "could not release a job's concurrency slot"));
    }
  };
}
