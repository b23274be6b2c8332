import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import { parseRedisTarget, type RedisTarget } from "@authsvc/config";

/** A connection to the service's Redis: one server, or a Redis Cluster (ioredis' Cluster speaks the same commands). */
export type RedisClient = Redis | Cluster;

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

const lastErrors = new WeakMap<RedisClient, Error>();
/** How long each connection's callers wait out a failover (REDIS_FAILOVER_WAIT_MS, given with the target): see `ridingFailover`. */
const failoverWaits = new WeakMap<RedisClient, number>();

/** A URL as REDIS_URL takes it (one server, or redis+cluster://). */
function targetOf(url: string): RedisTarget {
  const problems: string[] = [];
  const target = parseRedisTarget(url, undefined, problems);
  if (problems.length) throw new Error(problems.join("; "));
  return target;
}

/**
 * A connection for `role`, to one server (a URL, or a target whose `cluster` is null) or to a Redis Cluster.
 * On a cluster, a producer still fails fast while the slots it needs have no master (a failover under way:
 * the HTTP request gets a 503), and a blocking client waits it out; both follow the cluster's MOVED and
 * ASK answers and learn the new layout after a failover.
 */
export function createRedis(
  given: string | (RedisTarget & { failoverWaitMs?: number }),
  role: RedisRole,
  name: string,
  log?: RedisErrorLog,
): RedisClient {
  const target = typeof given === "string" ? targetOf(given) : given;
  const roleOptions: RedisOptions =
    role === "producer"
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true };
  const cluster = target.cluster;
  const redis: RedisClient = cluster
    ? new Cluster(cluster.nodes, {
        clusterRetryStrategy: reconnectDelayMs,
        // As for one server: a producer's command fails while the cluster is away (services wait for it to be
        // ready before they serve, redisDependency); a blocking client's waits for it.
        enableOfflineQueue: role !== "producer",
        enableReadyCheck: true,
        // Replicas only take over: every read must see the write before it (a claim, a lease, a cached session).
        scaleReads: "master",
        slotsRefreshTimeout: 2000,
        // With TLS the nodes' certificates name the host the client was given, not the address it resolves to
        // (managed clusters behind DNS): connect by the name.
        ...(cluster.tls
          ? {
              dnsLookup: (address: string, callback: (err: Error | null, address: string) => void) =>
                callback(null, address),
            }
          : {}),
        retryDelayOnFailover: 200,
        retryDelayOnClusterDown: 200,
        redisOptions: {
          connectionName: name,
          ...(cluster.username ? { username: cluster.username } : {}),
          ...(cluster.password ? { password: cluster.password } : {}),
          ...(cluster.tls ? { tls: {} } : {}),
          // A node's connection is made on its first command, so it must queue that command; a producer's still
          // fails after one reconnect attempt.
          maxRetriesPerRequest: role === "producer" ? 1 : null,
        },
      } satisfies ClusterOptions)
    : new Redis(target.url, {
        connectionName: name,
        lazyConnect: false,
        retryStrategy: reconnectDelayMs,
        ...roleOptions,
      });
  failoverWaits.set(redis, typeof given === "string" ? 0 : (given.failoverWaitMs ?? 0));
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
 * Whether `err` says Redis is away for now rather than that a command was wrong: the server is unreachable or
 * restarting (a producer fails fast without an offline queue, or after one retry), or a cluster's slot has no
 * master while a replica takes over (CLUSTERDOWN, TRYAGAIN, redirections that lead nowhere).
 */
export function isRedisUnavailable(err: unknown): boolean {
  const text = err instanceof Error ? `${err.name} ${err.message} ${(err as { code?: string }).code ?? ""}` : "";
  return /ECONNREFUSED|Connection is closed|Stream isn't writeable|enableOfflineQueue|MaxRetriesPerRequest|max retries per request|ETIMEDOUT|CLUSTERDOWN|TRYAGAIN|Too many Cluster redirections|Failed to refresh slots cache|None of startup nodes is available/.test(
    text,
  );
}

/**
 * Runs `attempt`, and again while Redis is failing over (a master lost and its replica not yet promoted, a
 * Sentinel or a managed endpoint switching, a restart: `isRedisUnavailable`), pausing 100 ms, then twice as
 * long up to a second between tries, for at most `waitMs` (REDIS_FAILOVER_WAIT_MS); then the last error is
 * thrown (the gateway answers it 503 with Retry-After). Between tries a cluster learns its new masters. Only for
 * attempts that may run twice without harm: a failed try may still have reached Redis.
 */
async function rideThroughFailover<T>(attempt: () => Promise<T>, waitMs: number, redis: RedisClient): Promise<T> {
  if (waitMs <= 0) return attempt();
  const until = Date.now() + waitMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 1000)) {
    try {
      return await withinWait(attempt(), until, redis);
    } catch (err) {
      if (!isRedisUnavailable(err) || Date.now() + pause > until) throw err;
      if (redis instanceof Cluster)
        (redis as unknown as { refreshSlotsCache(cb?: (err?: Error) => void): void }).refreshSlotsCache(
          () => undefined,
        );
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** The ioredis connection a BullMQ queue was created on (createAuthQueue and its kin), for the service's own keys beside the queue's. */
export function queueConnection(queue: { opts: { connection?: unknown } }): RedisClient {
  const connection = queue.opts.connection as RedisClient | undefined;
  if (!connection || typeof connection.eval !== "function")
    throw new Error("the queue must be created on an ioredis connection (createAuthQueue)");
  return connection;
}

/**
 * A try's answer, or an unavailable error at `until` unless `redis` is one server connected now (a slow answer on
 * a busy machine is waited for): a command sent just before a connection was cut is held by ioredis until the
 * connection is back (to be sent again), however long that takes, and the wait is bounded.
 */
function withinWait<T>(answer: Promise<T>, until: number, redis: RedisClient): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const check = () => {
      if (redis instanceof Redis && redis.status === "ready") timer = setTimeout(check, 1000);
      else
        reject(
          Object.assign(new Error("Redis did not answer within REDIS_FAILOVER_WAIT_MS (ETIMEDOUT)"), {
            code: "ETIMEDOUT",
          }),
        );
    };
    timer = setTimeout(check, Math.max(0, until - Date.now()));
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * `attempt` on `redis`, waiting out a failover of it (`rideThroughFailover`) as long as the connection was made
 * to (the `failoverWaitMs` of the target it was created with: config.redis, REDIS_FAILOVER_WAIT_MS; none for a
 * bare URL). The one way the service's Redis calls ride through a failover. Only for attempts that may run
 * twice without harm: a failed try may still have reached Redis.
 */
export function ridingFailover<T>(redis: RedisClient, attempt: () => Promise<T>): Promise<T> {
  return rideThroughFailover(attempt, failoverWaits.get(redis) ?? 0, redis);
}

/**
 * A service's start-up check of a connection (see waitForDependencies in @authsvc/lifecycle): passes once
 * it is ready; otherwise fails saying why not, with the last connection error (refused, timed out…).
 */
export function redisDependency(redis: RedisClient, name = "Redis"): { name: string; check: () => Promise<void> } {
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
export function redisReady(redis: RedisClient, timeoutMs = 30_000): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
