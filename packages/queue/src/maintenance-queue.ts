import { Queue } from "bullmq";
import type { RedisClient } from "./redis-connections";
import { queuePrefix } from "./redis-keys";

export const MAINTENANCE_QUEUE = "maintenance";
export const RETENTION_JOB = "retention";
export const KEEPALIVE_JOB = "keepalive";
export const SWEEP_JOB = "sweep-open-jobs";
export const JOB_STATS_JOB = "job-stats";
export const SITE_STATS_JOB = "job-stats-sites";
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
 * Housekeeping that must run once per interval however many workers there are: BullMQ job schedulers
 * (upserted by every worker at start, so each exists once) put retention, keep-alive, open-jobs sweep and
 * job stats jobs on the queue. Upserting again is harmless: a worker does it whenever Redis comes back, since a Redis
 * restarted without persistence has lost the schedulers.
 */
export async function scheduleMaintenance(queue: Queue, schedule: MaintenanceSchedule): Promise<void> {
  const opts = { removeOnComplete: { count: 12 }, removeOnFail: { count: 100 } };
  await queue.upsertJobScheduler(RETENTION_JOB, { every: RETENTION_EVERY_MS }, { name: RETENTION_JOB, opts });
  await queue.upsertJobScheduler(SWEEP_JOB, { every: schedule.sweepEveryMs }, { name: SWEEP_JOB, opts });
  await queue.upsertJobScheduler(JOB_STATS_JOB, { every: schedule.statsEveryMs }, { name: JOB_STATS_JOB, opts });
  await queue.upsertJobScheduler(SITE_STATS_JOB, { every: schedule.siteStatsEveryMs }, { name: SITE_STATS_JOB, opts });
  if (schedule.keepAliveEveryMs > 0)
    await queue.upsertJobScheduler(KEEPALIVE_JOB, { every: schedule.keepAliveEveryMs }, { name: KEEPALIVE_JOB, opts });
  else await queue.removeJobScheduler(KEEPALIVE_JOB);
}

export function createMaintenanceQueue(connection: RedisClient, prefix: string): Queue {
  return new Queue(MAINTENANCE_QUEUE, { connection, prefix: queuePrefix(prefix, MAINTENANCE_QUEUE) });
}
