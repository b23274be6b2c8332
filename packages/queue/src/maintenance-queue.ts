import { Queue } from "bullmq";
import type { Redis } from "ioredis";

export const MAINTENANCE_QUEUE = "maintenance";
export const RETENTION_JOB = "retention";
export const KEEPALIVE_JOB = "keepalive";
// Often enough that verification messages do not outlive their retention by much; each sweep is a few
// indexed deletes.
const RETENTION_EVERY_MS = 5 * 60 * 1000;

/**
 * Housekeeping that must run once per interval however many workers there are: a BullMQ job scheduler
 * (upserted by every worker at start, so it exists once) puts one retention job on the queue every 5 minutes.
 */
export async function scheduleRetention(connection: Redis, prefix: string, keepAliveEveryMs = 0): Promise<Queue> {
  const queue = new Queue(MAINTENANCE_QUEUE, { connection, prefix });
  const opts = { removeOnComplete: { count: 12 }, removeOnFail: { count: 100 } };
  await queue.upsertJobScheduler(RETENTION_JOB, { every: RETENTION_EVERY_MS }, { name: RETENTION_JOB, opts });
  // The keep-alive job (apps/worker/src/maintenance/keep-alive.ts) on the same queue; 0 removes its scheduler.
  if (keepAliveEveryMs > 0) await queue.upsertJobScheduler(KEEPALIVE_JOB, { every: keepAliveEveryMs }, { name: KEEPALIVE_JOB, opts });
  else await queue.removeJobScheduler(KEEPALIVE_JOB);
  return queue;
}
