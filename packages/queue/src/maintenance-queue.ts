import { Queue } from "bullmq";
import type { RedisClient } from "./redis-connections";
import { queuePrefix } from "./redis-keys";

export const MAINTENANCE_QUEUE = "maintenance";
// Often enough that verification messages do not outlive their retention by much; each sweep is a few
// indexed deletes.
const RETENTION_EVERY_MS = 5 * 60 * 1000;

export interface MaintenanceSchedule {
  /** Keep-alive (apps/worker/src/maintenance/keep-alive.ts); 0 removes its scheduler. */
  keepAliveEveryMs: number;
  /** The sweep of jobs the queue no longer runs (packages/jobs sweep-open-jobs). */
  sweepEveryMs: number;
  /** The job stats rollup and its per-site numbers (the dashboard's charts; apps/worker/src/maintenance/roll-up-job-stats.ts). */
  statsEveryMs: number;
  siteStatsEveryMs: number;
}

/**
 * Every maintenance task, by its job name on the maintenance queue, with how often it runs (0: not at all,
 * its scheduler is removed). The scheduler and the worker's processor both read this catalog, so a task is
 * scheduled only if it is run, and a name outside it is an error rather than some default task.
 */
export const MAINTENANCE_TASKS = {
  retention: { everyMs: () => RETENTION_EVERY_MS },
  "sweep-open-jobs": { everyMs: (s: MaintenanceSchedule) => s.sweepEveryMs },
  "job-stats": { everyMs: (s: MaintenanceSchedule) => s.statsEveryMs },
  "job-stats-sites": { everyMs: (s: MaintenanceSchedule) => s.siteStatsEveryMs },
  keepalive: { everyMs: (s: MaintenanceSchedule) => s.keepAliveEveryMs },
} as const satisfies Record<string, { everyMs: (schedule: MaintenanceSchedule) => number }>;

export type MaintenanceTask = keyof typeof MAINTENANCE_TASKS;

export const RETENTION_JOB = "retention" satisfies MaintenanceTask;
export const KEEPALIVE_JOB = "keepalive" satisfies MaintenanceTask;
export const SWEEP_JOB = "sweep-open-jobs" satisfies MaintenanceTask;
export const JOB_STATS_JOB = "job-stats" satisfies MaintenanceTask;
export const SITE_STATS_JOB = "job-stats-sites" satisfies MaintenanceTask;

/** A job on the maintenance queue whose name is no task of the catalog (a typo, or a task since removed). */
export class UnknownMaintenanceTask extends Error {
  constructor(readonly jobName: string) {
    super(`"${jobName}" is no maintenance task (known: ${Object.keys(MAINTENANCE_TASKS).join(", ")})`);
    this.name = "UnknownMaintenanceTask";
  }
}

/** The catalog's task of this job name; throws UnknownMaintenanceTask for any other name. */
export function maintenanceTaskOf(jobName: string): MaintenanceTask {
  if (!Object.hasOwn(MAINTENANCE_TASKS, jobName)) throw new UnknownMaintenanceTask(jobName);
  return jobName as MaintenanceTask;
}

/**
 * Housekeeping that must run once per interval however many workers there are: BullMQ job schedulers
 * (upserted by every worker at start, so each exists once) put every task of the catalog on the queue.
 * Upserting again is harmless: a worker does it whenever Redis comes back, since a Redis restarted without
 * persistence has lost the schedulers.
 */
export async function scheduleMaintenance(
  queue: Pick<Queue, "upsertJobScheduler" | "removeJobScheduler">,
  schedule: MaintenanceSchedule,
): Promise<void> {
  const opts = { removeOnComplete: { count: 12 }, removeOnFail: { count: 100 } };
  for (const [name, task] of Object.entries(MAINTENANCE_TASKS)) {
    const every = task.everyMs(schedule);
    if (every > 0) await queue.upsertJobScheduler(name, { every }, { name, opts });
    else await queue.removeJobScheduler(name);
  }
}

export function createMaintenanceQueue(connection: RedisClient, prefix: string): Queue {
  return new Queue(MAINTENANCE_QUEUE, { connection, prefix: queuePrefix(prefix, MAINTENANCE_QUEUE) });
}
