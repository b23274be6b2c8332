import { Redis } from "ioredis";

/**
 * producer: fails fast while Redis is away (the HTTP request gets a 503 instead of hanging);
 * blocking: BullMQ workers and QueueEvents, which must wait out a reconnect rather than give up.
 */
export type RedisRole = "producer" | "blocking";

/** Where a connection's errors are reported (a service's logger). */
export interface RedisErrorLog {
  warn(fields: object, message: string): void;
}

/** A connection's errors are reported at most this often while they repeat (a reconnect a second during an outage). */
const ERROR_REPORT_EVERY_MS = 30_000;

/** Reconnect attempts while Redis is away: quickly at first, then once a second, so service resumes within a second of its return. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(attempt * 100, 1000);
}

const lastErrors = new WeakMap<Redis, Error>();

export function createRedis(url: string, role: RedisRole, name: string, log?: RedisErrorLog): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    lazyConnect: false,
    retryStrategy: reconnectDelayMs,
    ...(role === "producer"
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true }),
  });
  // Kept for the start-up check (which says why Redis is not there yet), and reported through the service's
  // log rather than ioredis' "Unhandled error event" stack traces: once per kind of error, then every 30 s.
  let reported = { message: "", at: 0 };
  redis.on("error", (err: Error) => {
    lastErrors.set(redis, err);
    const now = Date.now();
    if (!log || (err.message === reported.message && now - reported.at < ERROR_REPORT_EVERY_MS)) return;
    reported = { message: err.message, at: now };
    log.warn({ connection: name, err: err.message }, "Redis connection error; reconnecting");
  });
  redis.on("ready", () => {
    lastErrors.delete(redis);
    reported = { message: "", at: 0 };
  });
  return redis;
}

/**
 * A service's start-up check of a connection (see waitForDependencies in @authsvc/lifecycle): passes once
 * it is ready; otherwise fails saying why not, with the last connection error (refused, timed out…).
 */
export function redisDependency(redis: Redis, name = "Redis"): { name: string; check: () => Promise<void> } {
  return {
    name,
    check: async () => {
      if (redis.status === "ready") return;
      const err = lastErrors.get(redis);
      throw new Error(`connection ${redis.status}${err ? ` (last error: ${err.message})` : ""}`);
    },
  };
}

/** Resolves once the connection is ready; rejects after `timeoutMs`. For short-lived tools (the CLI); services wait with redisDependency. */
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
