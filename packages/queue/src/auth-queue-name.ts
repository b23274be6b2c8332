/** The auth queue's name, apart so the gate can read it without importing the queue module. */
export const AUTH_QUEUE = "auth";

/**
 * The queue of a worker region: a job that asked for a region waits in that region's own queue, which only
 * that region's workers take from (BullMQ has no routing of one queue's jobs to some of its workers). Jobs of
 * no region wait in `auth`, which every worker takes from.
 */
export function authQueueName(region?: string | null): string {
  return region ? `${AUTH_QUEUE}-${region}` : AUTH_QUEUE;
}
