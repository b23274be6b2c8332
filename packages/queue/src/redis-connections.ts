import { Redis } from "ioredis";

/**
 * producer: fails fast while Redis is away (the HTTP request gets a 503 instead of hanging);
 * blocking: BullMQ workers and QueueEvents, which must wait out a reconnect rather than give up.
 */
export type RedisRole = "producer" | "blocking";

/** Reconnect attempts while Redis is away: quickly at first, then once a second, so service resumes within a second of its return. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 100, 1000);
}

export function createRedis(url: string, role: RedisRole, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    lazyConnect: false,
    retryStrategy: reconnectDelayMs,
    ...(role === "producer"
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true }),
  });
}

/** Resolves once the connection is ready; rejects after `timeoutMs` (30 s: a loaded node, or a Redis still starting beside the process). */
export function redisReady(redis: Redis, timeoutMs = 30_000): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
