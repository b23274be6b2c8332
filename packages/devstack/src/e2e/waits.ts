import { loadConfig } from "@authsvc/config";
import {
  JOB_STATS_JOB,
  KEEPALIVE_JOB,
  SITE_STATS_JOB,
  SWEEP_JOB,
  createAuthQueue,
  createMaintenanceQueue,
  createRedis,
  createWebhookQueue,
  type RedisClient,
} from "@authsvc/queue";
import { waitFor, WAIT_BOUND_MS, type WaitOptions } from "@authsvc/waiting";
import { call, database } from "./api-client";

export { SLOWEST_POLL_MS, WAIT_BOUND_MS, waitFor, type WaitOptions } from "@authsvc/waiting";

/** The stack's queues (read only: the tests look jobs up), on one connection of their own. */
let queues:
  | {
      redis: RedisClient;
      auth: ReturnType<typeof createAuthQueue>;
      webhooks: ReturnType<typeof createWebhookQueue>;
      maintenance: ReturnType<typeof createMaintenanceQueue>;
    }
  | undefined;
function stackQueues() {
  if (!queues) {
    const { redis: settings } = loadConfig();
    const redis = createRedis(settings, "blocking", "e2e-waits");
    // Only read: the retry policy of these Queue objects is never used.
    const readOnly = { attempts: 1, backoffMs: 0 };
    queues = {
      redis,
      auth: createAuthQueue(redis, settings.prefix, readOnly),
      webhooks: createWebhookQueue(redis, settings.prefix, readOnly),
      maintenance: createMaintenanceQueue(redis, settings.prefix),
    };
  }
  return queues;
}

/** Closes the connection the queue helpers below opened (call it in afterAll when you used them). */
export async function closeQueues(): Promise<void> {
  const q = queues;
  queues = undefined;
  if (!q) return;
  await Promise.all([q.auth.close(), q.webhooks.close(), q.maintenance.close()]).catch(() => undefined);
  q.redis.disconnect();
}

/** A BullMQ job as the tests look at it. `final`: completed or failed for good (a retry waits `delayed`). */
export interface QueueJobState {
  id: string;
  name: string;
  state: string;
  final: boolean;
  /** Runs that ended (succeeded or failed), as BullMQ counts them. */
  attemptsMade: number;
  /** Runs that started (a run taken over after a stall counts here too). */
  attemptsStarted: number;
  failedReason?: string;
  returnvalue: unknown;
  processedOn?: number;
  finishedOn?: number;
  data: any;
}

type Readable = {
  getState(): Promise<string>;
  id?: string;
  name: string;
  attemptsMade: number;
  attemptsStarted?: number;
  failedReason?: string;
  returnvalue: unknown;
  processedOn?: number;
  finishedOn?: number;
  data: any;
};

async function snapshot(job: Readable): Promise<QueueJobState> {
  const state = await job.getState();
  return {
    id: job.id!,
    name: job.name,
    state,
    final: state === "completed" || state === "failed",
    attemptsMade: job.attemptsMade,
    attemptsStarted: job.attemptsStarted ?? 0,
    failedReason: job.failedReason || undefined,
    returnvalue: job.returnvalue,
    processedOn: job.processedOn,
    finishedOn: job.finishedOn,
    data: job.data,
  };
}

/** A job of the stack's auth queue (its id is the auth job's id) or webhook queue, or null if the queue has none by that id. */
export async function queueJob(queue: "auth" | "webhooks", jobId: string): Promise<QueueJobState | null> {
  const job = await stackQueues()[queue].getJob(jobId);
  return job ? snapshot(job as unknown as Readable) : null;
}

/**
 * Waits until the queue's job has reached its final state (completed, or failed with no retry left) and
 * returns it: from then on the queue runs it no more, so what it did (attempts, events) is all it will do.
 */
export async function finalQueueJob(
  queue: "auth" | "webhooks",
  jobId: string,
  options: WaitOptions = {},
): Promise<QueueJobState> {
  return waitFor(
    `${queue} job ${jobId} completed or failed in the queue`,
    async () => {
      const job = await queueJob(queue, jobId);
      return job?.final ? job : null;
    },
    options,
  );
}

const ALL_STATES = [
  "active",
  "waiting",
  "wait",
  "prioritized",
  "delayed",
  "waiting-children",
  "completed",
  "failed",
] as const;

/** Every delivery the webhook queue holds for one webhook (of any event), with its state. */
export async function webhookDeliveries(webhookId: string): Promise<QueueJobState[]> {
  // One listing of every state at once, then each job's own state (a job listed stays listed: jobs are kept for a day).
  const jobs = (await stackQueues().webhooks.getJobs([...ALL_STATES])) as unknown as Readable[];
  return Promise.all(jobs.filter((j) => j?.data?.webhookId === webhookId).map(snapshot));
}

/**
 * Waits until every delivery queued so far for the webhook has ended (delivered, or failed for good), and
 * returns them. Wait first for whatever could still queue one (the job that emits the event) to end.
 */
export async function settledWebhookDeliveries(webhookId: string, options: WaitOptions = {}): Promise<QueueJobState[]> {
  return waitFor(
    `every delivery to webhook ${webhookId} ended`,
    async () => {
      const deliveries = await webhookDeliveries(webhookId);
      return deliveries.every((d) => d.final) ? deliveries : null;
    },
    options,
  );
}

/**
 * Waits until `count` runs of a maintenance job (keep-alive, the open-jobs sweep, the job stats or their sites) that started at or after
 * `since` (ms since the epoch) have completed: each of them saw every change made before `since`, so what
 * they would do about it is done (or, if nothing, will not be done by a later run either).
 */
export async function maintenanceRunsSince(
  job: "keepalive" | "sweep-open-jobs" | "job-stats" | "job-stats-sites",
  since: number,
  count = 2,
  options: WaitOptions = {},
): Promise<QueueJobState[]> {
  const name = {
    keepalive: KEEPALIVE_JOB,
    "sweep-open-jobs": SWEEP_JOB,
    "job-stats": JOB_STATS_JOB,
    "job-stats-sites": SITE_STATS_JOB,
  }[job];
  return waitFor(
    `${count} ${name} runs started after ${new Date(since).toISOString()} completed`,
    async () => {
      const done = (await stackQueues().maintenance.getJobs(["completed"])) as unknown as Readable[];
      const runs = done.filter((j) => j && j.name === name && (j.processedOn ?? 0) >= since && j.finishedOn);
      return runs.length >= count ? Promise.all(runs.map(snapshot)) : null;
    },
    { timeoutMs: WAIT_BOUND_MS, everyMs: 200, ...options },
  );
}

/** Waits until the auth job's record says it ended (succeeded or failed), and returns the record. */
export async function finalJobRecord(orgId: string, jobId: string, options: WaitOptions = {}) {
  return waitFor(
    `job ${jobId} ended in the database`,
    async () => {
      const job = await database().authJobs.find(orgId, jobId);
      return job && (job.status === "succeeded" || job.status === "failed") ? job : null;
    },
    options,
  );
}

/** Polls GET /v1/jobs/{id} as a caller would until the job has ended, and returns the API's view of it. */
export async function finishedJob(key: string, jobId: string, options: WaitOptions = {}): Promise<any> {
  return waitFor(
    `GET /v1/jobs/${jobId} says it ended`,
    async () => {
      const job = (await call("GET", `/v1/jobs/${jobId}`, { key })).body;
      return job && (job.status === "succeeded" || job.status === "failed") ? job : null;
    },
    { everyMs: 200, ...options },
  );
}
