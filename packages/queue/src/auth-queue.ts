import { Queue, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";

export const AUTH_QUEUE = "auth";
/** The BullMQ name of every auth job (login, refresh, signup, verify); the processor reads the kind from the record. */
export const AUTH_JOB = "auth";

/**
 * What travels through Redis: ids only. Inputs (encrypted) and results live in Postgres. New fields must be
 * optional: jobs from the previous deploy are still in flight during a rolling update.
 */
export interface AuthJobPayload {
  authJobId: string;
  orgId: string;
}

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

export function authJobOptions(retry: RetryPolicy): JobsOptions {
  return {
    attempts: retry.attempts,
    backoff: { type: "exponential", delay: retry.backoffMs },
    // Kept for a while (not removed on completion): waiters and operators look jobs up after they end.
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 50_000 },
  };
}

export function createAuthQueue(connection: Redis, prefix: string, retry: RetryPolicy): Queue<AuthJobPayload> {
  return new Queue<AuthJobPayload>(AUTH_QUEUE, { connection, prefix, defaultJobOptions: authJobOptions(retry) });
}

export function enqueueAuthJob(queue: Queue<AuthJobPayload>, payload: AuthJobPayload) {
  return queue.add(AUTH_JOB, payload, { jobId: payload.authJobId });
}

/**
 * Queues an auth job again under its own id (a replay of a job that failed for good). The queue keeps a
 * failed job for days, and `add` with an id that still exists does nothing, so that earlier run is removed
 * first. False when it could not be (its run is still active): nothing was queued.
 */
export async function requeueAuthJob(queue: Queue<AuthJobPayload>, payload: AuthJobPayload): Promise<boolean> {
  const id = payload.authJobId;
  if (await queue.getJob(id)) {
    await queue.remove(id);
    if (await queue.getJob(id)) return false;
  }
  await enqueueAuthJob(queue, payload);
  return true;
}
