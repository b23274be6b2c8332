import { Queue, type JobsOptions } from "bullmq";
import type { RedisClient } from "./redis-connections";
import { jobGateOf, type GateCaps } from "./job-gate";
import { AUTH_QUEUE, authQueueName } from "./auth-queue-name";
import { prefixOfQueue, queuePrefix } from "./redis-keys";

export { AUTH_QUEUE, authQueueName } from "./auth-queue-name";
/** The BullMQ name of every auth job (login, refresh, signup, verify); the processor reads the kind from the record. */
export const AUTH_JOB = "auth";

/**
 * What travels through Redis: ids only. Inputs (encrypted) and results live in Postgres. New fields must be
 * optional: jobs from the previous deploy are still in flight during a rolling update.
 */
export interface AuthJobPayload {
  authJobId: string;
  orgId: string;
  /** The host the job logs in to, for the per-site concurrency cap (`gateSite`). Absent in jobs queued by older deploys: they count against no site. */
  site?: string;
  /** The worker region it runs in (its queue is that region's); absent: any worker. */
  region?: string;
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

/** The queue of jobs of no region (`prefix`: the service's); `regionQueue` gives a region's, on the same connection and options. */
export function createAuthQueue(connection: RedisClient, prefix: string, retry: RetryPolicy): Queue<AuthJobPayload> {
  return new Queue<AuthJobPayload>(AUTH_QUEUE, {
    connection,
    prefix: queuePrefix(prefix, AUTH_QUEUE),
    defaultJobOptions: authJobOptions(retry),
  });
}

const regionQueues = new WeakMap<Queue, Map<string, Queue<AuthJobPayload>>>();

/**
 * The queue a job of `region` waits in (the auth queue itself for none): made once per region beside the auth
 * queue, on its connection, prefix and job options, so every caller that holds the auth queue reaches every
 * region's.
 */
export function regionQueue(authQueue: Queue<AuthJobPayload>, region?: string | null): Queue<AuthJobPayload> {
  if (!region) return authQueue;
  let known = regionQueues.get(authQueue);
  if (!known) regionQueues.set(authQueue, (known = new Map()));
  let queue = known.get(region);
  if (!queue) {
    const { connection, defaultJobOptions } = authQueue.opts;
    const name = authQueueName(region);
    queue = new Queue<AuthJobPayload>(name, {
      connection: connection as RedisClient,
      prefix: queuePrefix(prefixOfQueue(authQueue), name),
      defaultJobOptions,
    });
    known.set(region, queue);
  }
  return queue;
}

/** Closes the auth queue and the region queues made beside it. */
export async function closeAuthQueues(authQueue: Queue<AuthJobPayload>): Promise<void> {
  await Promise.all([authQueue.close(), ...[...(regionQueues.get(authQueue)?.values() ?? [])].map((q) => q.close())]);
}

/**
 * Queues an auth job through the concurrency gate: when its organization already has jobs waiting for a
 * slot, or no room, it is queued delayed and put on the org's waiting list at once, so that a burst of one
 * org does not stand in the queue in front of another org's login (a worker would only park each job again).
 * Its priority is its place in its organization's line (`fairPriority`): a slot that frees goes to the
 * organization with the fewest jobs ahead, not to the oldest job.
 */
export async function enqueueAuthJob(
  authQueue: Queue<AuthJobPayload>,
  payload: AuthJobPayload,
  caps: GateCaps,
): Promise<void> {
  const queue = regionQueue(authQueue, payload.region);
  const gate = jobGateOf(queue, caps);
  const slot = { jobId: payload.authJobId, orgId: payload.orgId, site: payload.site };
  const { runNow, priority } = await gate.admit(slot);
  if (runNow) {
    await queue.add(AUTH_JOB, payload, { jobId: payload.authJobId, priority });
    return;
  }
  try {
    await queue.add(AUTH_JOB, payload, { jobId: payload.authJobId, priority, delay: gate.recheckAt() - Date.now() });
  } catch (err) {
    await gate.forget(slot).catch(() => undefined);
    throw err;
  }
  // A slot may have freed between the admission and the add, when the job could not be promoted yet. The job
  // is queued either way: if this fails, it looks again after its delay.
  await gate.promoteWaiting(slot).catch(() => undefined);
}

// How long a replay waits for the earlier run to leave the queue's active list: the job's record says it
// failed a moment before the worker moves it out (the failure is recorded first, then the run returns).
const ENDING_RUN_WAIT_MS = 5000;

/**
 * Takes an auth job's earlier run out of the queue, before the job is queued again under its own id. The
 * queue keeps a failed job for days, and `add` with an id that still exists does nothing; a run still ending
 * (active: its failure recorded, its claim and its last event maybe not yet) is waited for, a few seconds at
 * most. False when it could not be removed (its run is still active).
 */
export async function removeEarlierRun(
  authQueue: Queue<AuthJobPayload>,
  authJobId: string,
  region: string | undefined,
): Promise<boolean> {
  const queue = regionQueue(authQueue, region);
  const giveUpAt = Date.now() + ENDING_RUN_WAIT_MS;
  while (await queue.getJob(authJobId)) {
    await queue.remove(authJobId);
    if (!(await queue.getJob(authJobId))) break;
    if (Date.now() >= giveUpAt) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * Queues an auth job again under its own id (a job the queue lost): its earlier run removed
 * (`removeEarlierRun`), then through the gate. False when that run is still active: nothing was queued.
 */
export async function requeueAuthJob(
  authQueue: Queue<AuthJobPayload>,
  payload: AuthJobPayload,
  caps: GateCaps,
): Promise<boolean> {
  if (!(await removeEarlierRun(authQueue, payload.authJobId, payload.region))) return false;
  await enqueueAuthJob(authQueue, payload, caps);
  return true;
}
