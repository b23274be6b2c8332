import type { HostMap } from "@authsvc/egress";
import type { Env } from "./env-schema";
import type { RedisTarget } from "./redis-target";

// Config is a structured view of Env, not Env itself: the code reads `config.worker.lockMs`, not
// WORKER_LOCK_MS, and some fields are not one variable as it was given (lists parsed, a key decoded, MiB in
// bytes, a value of several variables). So Config keeps a mapping, but writes no variable's type, default or
// meaning again: those are the env schema's (env/), and
// - FIELDS names, for each field that is one variable as the schema checked it, that variable: its type is
//   the schema's (`Fields`), and loadConfig copies it;
// - Computed declares the other fields, which loadConfig makes from the variables COMPUTED_FROM lists (its
//   computeFields is given those and no others);
// - a variable of the schema in neither fails the type check at the end of this file, naming it.

/** Each field of Config that is one variable, named by it: a section's fields, or a top-level field. */
export const FIELDS = {
  env: "NODE_ENV",
  logLevel: "LOG_LEVEL",
  databaseUrl: "DATABASE_URL",
  /** With the server or cluster (Computed): the prefix of every key, and how long a failover is waited out. */
  redis: { prefix: "REDIS_PREFIX", failoverWaitMs: "REDIS_FAILOVER_WAIT_MS" },
  crypto: { keyRing: "ENCRYPTION_KEYS", activeKeyVersion: "ENCRYPTION_ACTIVE_KEY" },
  gateway: {
    host: "GATEWAY_HOST",
    port: "GATEWAY_PORT",
    maxBodyBytes: "GATEWAY_MAX_BODY_BYTES",
    waitMs: "GATEWAY_WAIT_MS",
    rateLimitPerMinute: "RATE_LIMIT_PER_MINUTE",
    trustProxy: "TRUST_PROXY",
  },
  worker: {
    concurrency: "WORKER_CONCURRENCY",
    /** How long a start waits for a worker of the region it asks for. */
    regionWaitMs: "REGION_WAIT_MS",
    /** Concurrency caps shared by all workers (0: none): running jobs per organization and per site. */
    orgMaxRunningJobs: "ORG_MAX_RUNNING_JOBS",
    siteMaxRunningJobs: "SITE_MAX_RUNNING_JOBS",
    jobTimeoutMs: "JOB_TIMEOUT_MS",
    attempts: "JOB_ATTEMPTS",
    backoffMs: "JOB_BACKOFF_MS",
    shutdownTimeoutMs: "WORKER_SHUTDOWN_TIMEOUT_MS",
    /** BullMQ's lockDuration, stalledInterval and maxStalledCount: how a dead worker's job is taken over. */
    lockMs: "WORKER_LOCK_MS",
    stalledCheckMs: "WORKER_STALLED_CHECK_MS",
    maxStalled: "WORKER_MAX_STALLED",
    /** The interval of the sweep that ends or requeues jobs the queue no longer runs. */
    sweepEveryMs: "JOB_SWEEP_EVERY_MS",
    /** The intervals of the job stats rollup (the dashboard's charts) and of its per-site numbers. */
    statsEveryMs: "JOB_STATS_EVERY_MS",
    siteStatsEveryMs: "JOB_STATS_SITES_EVERY_MS",
    healthPort: "WORKER_HEALTH_PORT",
    /** Which Chromium the worker drives: the whole browser headless, or the headless shell. */
    browserMode: "BROWSER_MODE",
  },
  session: {
    ttlSeconds: "SESSION_TTL_SECONDS",
    checkMaxAgeSeconds: "SESSION_CHECK_MAX_AGE",
    checkTimeoutMs: "SESSION_CHECK_TIMEOUT_MS",
  },
  retention: {
    sessionHours: "SESSION_RETENTION_HOURS",
    jobDays: "JOB_RETENTION_DAYS",
    messageMinutes: "MESSAGE_RETENTION_MINUTES",
  },
  mail: {
    smtpHost: "MAIL_SMTP_HOST",
    smtpPort: "MAIL_SMTP_PORT",
    healthPort: "MAIL_HEALTH_PORT",
    maxBytes: "MAIL_MAX_BYTES",
  },
  mfa: { waitMs: "MFA_WAIT_MS" },
  /** The hand-off to a person: how long a job waits for input in all, how many of an org's jobs may wait at once. */
  handoff: { maxWaitMs: "HANDOFF_MAX_WAIT_MS", maxWaitingPerOrg: "HANDOFF_MAX_WAITING_PER_ORG" },
  sms: { twilioAuthToken: "TWILIO_AUTH_TOKEN", webhookUrl: "SMS_WEBHOOK_URL" },
  webhooks: { attempts: "WEBHOOK_ATTEMPTS", backoffMs: "WEBHOOK_BACKOFF_MS" },
  keepAlive: {
    everyMs: "KEEPALIVE_EVERY_MS",
    beforeExpiryMinutes: "KEEPALIVE_BEFORE_EXPIRY_MINUTES",
    maxAgeHours: "KEEPALIVE_MAX_AGE_HOURS",
    checksPerRun: "KEEPALIVE_CHECKS_PER_RUN",
    checksPerSite: "KEEPALIVE_CHECKS_PER_SITE",
  },
  /** The web dashboard. */
  dashboard: { host: "DASHBOARD_HOST", port: "DASHBOARD_PORT", sessionTtlHours: "DASHBOARD_SESSION_TTL_HOURS" },
} as const satisfies FieldTable;

type FieldTable = { [field: string]: keyof Env | { [field: string]: keyof Env } };

/** A field is optional when its variable is: no default, not required. */
type Optional<N> = N extends keyof Env ? (undefined extends Env[N] ? true : false) : false;
type Fields<T> = {
  [K in keyof T as Optional<T[K]> extends true ? never : K]: T[K] extends keyof Env ? Env[T[K]] : Fields<T[K]>;
} & { [K in keyof T as Optional<T[K]> extends true ? K : never]?: T[K] extends keyof Env ? Env[T[K]] : never };

/** The fields of Config that loadConfig makes from variables at start, beside FIELDS' in the same sections. */
export interface Computed {
  /** One server or a Redis Cluster (`cluster`). */
  redis: RedisTarget;
  crypto: { fingerprintKey: Buffer };
  worker: {
    /** The worker regions this process serves (WORKER_REGIONS), besides jobs of no region. */
    regions: string[];
    /** BullMQ's lockRenewTime: how often a running job's claim is renewed (`lockRenewMs`). */
    lockRenewMs: number;
    chromiumPath: string;
    /** Chromium is replaced after this many jobs, or above this much resident memory (0: never). */
    browserRecycle: { afterJobs: number; aboveBytes: number };
    /** Self-signed certificates Chromium accepts, by key: empty except in tests and development. */
    trustedSpki: string[];
  };
  /** `hostMap` is empty except in tests and development (EGRESS_HOST_MAP). */
  targets: { allowRanges: string[]; hostMap: HostMap; proxyAllow: string[] };
  mail: { domain: string; dnsServers: string[]; arcTrustedSealers: string[] };
  /** `url` is the dashboard's public address when the operator set one (DASHBOARD_URL). */
  dashboard: { url?: string; cookieSecure: boolean };
  /** The CAPTCHA solving service, when the operator configured one (`key` is a secret). */
  captchaSolver: { provider: "2captcha"; url: string; key: string } | null;
}

/** The variables Computed is made from, and those the checks across variables read. */
export const COMPUTED_FROM = [
  "NODE_ENV",
  "REDIS_URL",
  "REDIS_CLUSTER_NODES",
  "REDIS_FAILOVER_WAIT_MS",
  "FINGERPRINT_KEY",
  "WORKER_REGIONS",
  "WORKER_LOCK_MS",
  "WORKER_STALLED_CHECK_MS",
  "BROWSER_MODE",
  "CHROMIUM_PATH",
  "BROWSER_RECYCLE_AFTER_JOBS",
  "BROWSER_RECYCLE_ABOVE_MIB",
  "BROWSER_TRUSTED_SPKI",
  "TARGET_ALLOW_RANGES",
  "EGRESS_HOST_MAP",
  "EGRESS_PROXY_ALLOW",
  "MAIL_DOMAIN",
  "MAIL_DNS_SERVERS",
  "MAIL_ARC_TRUSTED_SEALERS",
  "DASHBOARD_URL",
  "DASHBOARD_COOKIE_SECURE",
  "CAPTCHA_SOLVER",
  "CAPTCHA_SOLVER_URL",
  "CAPTCHA_SOLVER_KEY",
] as const satisfies readonly (keyof Env)[];
export type ComputedFrom = Pick<Env, (typeof COMPUTED_FROM)[number]>;

/** Both parts, section by section. */
type Merged<A, B> = {
  [K in keyof A | keyof B]: K extends keyof A
    ? K extends keyof B
      ? A[K] & B[K]
      : A[K]
    : K extends keyof B
      ? B[K]
      : never;
};

/** The configuration every process reads (loadConfig): the environment, checked, as the code uses it. */
export type Config = Merged<Fields<typeof FIELDS>, Computed>;

/** FIELDS' values read off the checked environment: every field present, an unset optional one undefined. */
export function readFields(e: Env): Fields<typeof FIELDS> {
  const read = (table: FieldTable | Record<string, keyof Env>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(table).map(([field, v]) => [field, typeof v === "string" ? e[v] : read(v)]));
  return read(FIELDS) as Fields<typeof FIELDS>;
}

/** Config from its two parts: a section in both is the fields of each. */
export function mergeFields(fields: Fields<typeof FIELDS>, computed: Computed): Config {
  const config: Record<string, unknown> = { ...fields };
  for (const [section, value] of Object.entries(computed))
    config[section] = section in fields ? { ...(config[section] as object), ...value } : value;
  return config as Config;
}

type Named<T> = { [K in keyof T]: T[K] extends keyof Env ? T[K] : Named<T[K]> }[keyof T];
/** Every variable of the schema reaches Config: this type names any that neither FIELDS nor COMPUTED_FROM does. */
export type UnusedVariable = Exclude<keyof Env, Named<typeof FIELDS> | (typeof COMPUTED_FROM)[number]>;
// A variable added to the schema and forgotten above makes this line an error that names it.
const _everyVariableReachesConfig: Record<UnusedVariable, never> = {};
