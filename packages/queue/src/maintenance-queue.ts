import { Queue } from "bullmq";
import type { Redis } from "ioredis";

export const MAINTENANCE_QUEUE = "maintenance";
export const RETENTION_JOB = "retention";
const RETENTION_EVERY_MS = 60 * 60 * 1000;

/**
 * Housekeeping that must run once per interval however many workers there are: a BullMQ job scheduler
 * (upserted by every worker at start, so it exists once) puts one retention job on the queue each hour.
 */
export async function scheduleRetention(connection: Redis, prefix: string): Promise<Queue> {
  const queue = new Queue(MAINTENANCE_QUEUE, { connection, prefix });
  await queue.upsertJobScheduler(RETENTION_JOB, { every: RETENTION_EVERY_MS }, {
    name: RETENTION_JOB,
    opts: { removeOnComplete: { count: 24 }, removeOnFail: { count: 100 } },
  });
  return queue;
}
