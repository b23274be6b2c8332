import { text, type EnvVars } from "./env-var";

/** The environment itself, the database, Redis and the keys: what every process reads. */
export const CORE_VARS = {
  NODE_ENV: {
    type: "string",
    enum: ["development", "test", "production"],
    default: "production",
    description: text(
      "The kind of deployment. Production refuses `TARGET_ALLOW_RANGES`, `EGRESS_HOST_MAP` and",
      "`BROWSER_TRUSTED_SPKI`.",
    ),
  },
  LOG_LEVEL: {
    type: "string",
    enum: ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    default: "info",
    description: "pino's level, or `silent`. Secrets are redacted at every level.",
  },
  DATABASE_URL: {
    type: "string",
    pattern: "^postgres(ql)?://",
    description: "PostgreSQL URL, e.g. `postgresql://postgres@127.0.0.1:5432/authsvc`.",
  },
  REDIS_URL: {
    type: "string",
    pattern: "^rediss?(\\+cluster)?://",
    // The schema cannot require one of two names; loadConfig names a missing one with the other problems.
    docDefault: "**required** (or `REDIS_CLUSTER_NODES`)",
    description: text(
      "Redis: `redis://[user:password@]host:port` (or `rediss://`) for one server,",
      "`redis+cluster://[user:password@]host:port,host:port,…` (or `rediss+cluster://`) for a Redis",
      "Cluster, whose nodes named here are where clients start (they learn the rest). In production use",
      "`maxmemory-policy noeviction` (BullMQ needs its keys). See",
      "[Redis Cluster](operations.md#redis-cluster).",
    ),
  },
  REDIS_CLUSTER_NODES: {
    type: "string",
    description: text(
      "`host:port,…`: run on a Redis Cluster started from these nodes; `REDIS_URL`, when set too, brings",
      "only the credentials and TLS.",
    ),
  },
  REDIS_PREFIX: {
    type: "string",
    minLength: 1,
    pattern: "^[A-Za-z0-9_.-]+$",
    default: "authsvc",
    description: text(
      "Prefix of every Redis key (queues, cache, single-flight, rate limits), so deployments can share one",
      "Redis.",
    ),
  },
  REDIS_FAILOVER_WAIT_MS: {
    type: "integer",
    minimum: 0,
    maximum: 120000,
    default: 20000,
    description: text(
      "How long a request waits out a Redis failover (a Redis Cluster promoting a replica, a Sentinel or a",
      "managed endpoint switching, a restart) before it is answered `503 service_unavailable` with",
      "`Retry-After`. While Redis is away the gateway tries again (100 ms, then twice as long up to a",
      "second), as the same job: its rate limit (and the cached session read with it), and a login's claim",
      "and queueing; nothing is half-enqueued (a start that gives up is rolled back). A cluster's failover",
      "takes its `cluster-node-timeout` plus an election: 2–4 s with 2000 ms, 15–20 s with Redis' default",
      "15000.",
    ),
  },
  ENCRYPTION_KEYS: {
    type: "string",
    minLength: 1,
    description: text(
      "Key-encryption keys, `<version>:<base64 of 32 bytes>` comma separated. The highest version encrypts;",
      "all versions decrypt. Rotate by adding a version.",
    ),
  },
  ENCRYPTION_ACTIVE_KEY: {
    type: "integer",
    minimum: 1,
    docDefault: "highest",
    description: "Version that encrypts, when it should not be the highest (e.g. during a staged rollout).",
  },
  FINGERPRINT_KEY: {
    type: "string",
    minLength: 40,
    description: text(
      "base64 of 32 bytes: keys the HMAC that names cache and single-flight entries. Changing it empties",
      "the cache.",
    ),
  },
} as const satisfies EnvVars;
