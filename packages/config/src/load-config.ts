import { isIP } from "node:net";
import Ajv from "ajv";
import { REGION_PATTERN, toFieldErrors } from "@authsvc/contracts";
import { HostMap } from "@authsvc/egress";
import { envSchema, type Env } from "./env-schema";
import { parseRedisTarget, type RedisTarget } from "./redis-target";
import { chromiumPath } from "./chromium";

export interface Config {
  env: "development" | "test" | "production";
  logLevel: string;
  databaseUrl: string;
  /** One server or a Redis Cluster (`cluster`), and the prefix of every key. */
  redis: RedisTarget & { prefix: string; failoverWaitMs: number };
  crypto: { keyRing: string; activeKeyVersion?: number; fingerprintKey: Buffer };
  gateway: {
    host: string;
    port: number;
    maxBodyBytes: number;
    waitMs: number;
    rateLimitPerMinute: number;
    trustProxy: boolean;
  };
  worker: {
    concurrency: number;
    /** The worker regions this process serves (WORKER_REGIONS), besides jobs of no region. */
    regions: string[];
    /** How long a start waits for a worker of the region it asks for (REGION_WAIT_MS). */
    regionWaitMs: number;
    /** Concurrency caps shared by all workers (0: none): running jobs per organization and per site. */
    orgMaxRunningJobs: number;
    siteMaxRunningJobs: number;
    jobTimeoutMs: number;
    attempts: number;
    backoffMs: number;
    shutdownTimeoutMs: number;
    /** BullMQ's lockDuration, stalledInterval and maxStalledCount: how a dead worker's job is taken over. */
    lockMs: number;
    /** BullMQ's lockRenewTime: how often a running job's claim is renewed (`lockRenewMs`). */
    lockRenewMs: number;
    stalledCheckMs: number;
    maxStalled: number;
    /** The interval of the sweep that ends or requeues jobs the queue no longer runs. */
    sweepEveryMs: number;
    /** The intervals of the job stats rollup (the dashboard's charts) and of its per-site numbers. */
    statsEveryMs: number;
    siteStatsEveryMs: number;
    healthPort: number;
    chromiumPath: string;
    /** Which Chromium the worker drives (BROWSER_MODE): the whole browser headless, or the headless shell. */
    browserMode: "full" | "shell";
    /** Chromium is replaced after this many jobs, or above this much resident memory (0: never). */
    browserRecycle: { afterJobs: number; aboveBytes: number };
    /** Self-signed certificates Chromium accepts, by key (BROWSER_TRUSTED_SPKI): empty except in tests and development. */
    trustedSpki: string[];
  };
  /** `hostMap` is empty except in tests and development (EGRESS_HOST_MAP). */
  targets: { allowRanges: string[]; hostMap: HostMap; proxyAllow: string[] };
  session: { ttlSeconds: number; checkMaxAgeSeconds: number; checkTimeoutMs: number };
  retention: { sessionHours: number; jobDays: number; messageMinutes: number };
  mail: {
    domain: string;
    smtpHost: string;
    smtpPort: number;
    healthPort: number;
    maxBytes: number;
    dnsServers: string[];
    arcTrustedSealers: string[];
  };
  mfa: { waitMs: number };
  /** The hand-off to a person: how long a job waits for input in all, and how many of an org's jobs may wait at once. */
  handoff: { maxWaitMs: number; maxWaitingPerOrg: number };
  sms: { twilioAuthToken?: string; webhookUrl?: string };
  webhooks: { attempts: number; backoffMs: number };
  keepAlive: {
    everyMs: number;
    beforeExpiryMinutes: number;
    maxAgeHours: number;
    checksPerRun: number;
    checksPerSite: number;
  };
  /** The web dashboard; `url` is its public address when the operator set one (DASHBOARD_URL). */
  dashboard: { host: string; port: number; url?: string; sessionTtlHours: number; cookieSecure: boolean };
  /** The CAPTCHA solving service, when the operator configured one (`key` is a secret). */
  captchaSolver: { provider: "2captcha"; url: string; key: string } | null;
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

const KNOWN_RANGES = new Set(["loopback", "private", "linkLocal", "uniqueLocal", "carrierGradeNat", "unspecified"]);
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false });
const validateEnv = ajv.compile(envSchema);

/** Parses the environment once, at start; the rest of the code reads the typed object it returns. */
// A claim is renewed at least this often, and this much before it would lapse after a failover.
const LOCK_RENEW_MIN_MS = 1000;
const LOCK_RENEW_MARGIN_MS = 2000;

/**
 * How often a worker renews a running job's claim (BullMQ lockRenewTime). BullMQ renews every half of the
 * claim; but a renewal sent while Redis fails over is answered only once the failover ends (the worker's
 * connection waits), so the claim must outlast one interval plus the longest failover the service waits out
 * (REDIS_FAILOVER_WAIT_MS), with a margin: otherwise a live worker's job lapses and another worker runs it again.
 */
export function lockRenewMs(lockMs: number, failoverWaitMs: number): number {
  return Math.max(LOCK_RENEW_MIN_MS, Math.min(Math.floor(lockMs / 2), lockMs - failoverWaitMs - LOCK_RENEW_MARGIN_MS));
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env: Record<string, unknown> = {};
  for (const name of Object.keys(envSchema.properties)) {
    const value = source[name];
    if (value !== undefined && value !== "") env[name] = value;
  }
  if (!validateEnv(env)) {
    const problems = toFieldErrors(validateEnv.errors).map((e) => `${e.field.slice(1)} ${e.message}`);
    // Either of the two names Redis, so the schema cannot require one; a missing one is named with the rest.
    if (env.REDIS_URL === undefined && env.REDIS_CLUSTER_NODES === undefined)
      parseRedisTarget(undefined, undefined, problems);
    throw new ConfigError(problems);
  }
  const e = env as Env;
  const problems: string[] = [];
  const redis = parseRedisTarget(e.REDIS_URL, e.REDIS_CLUSTER_NODES, problems);
  const fingerprintKey = Buffer.from(e.FINGERPRINT_KEY, "base64");
  if (fingerprintKey.length !== 32) problems.push("FINGERPRINT_KEY must be 32 bytes, base64");
  const allowRanges = String(e.TARGET_ALLOW_RANGES)
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  for (const r of allowRanges) if (!KNOWN_RANGES.has(r)) problems.push(`TARGET_ALLOW_RANGES: unknown range "${r}"`);
  if (e.NODE_ENV === "production" && allowRanges.length > 0) {
    problems.push("TARGET_ALLOW_RANGES must be empty in production: callers could reach our own network");
  }
  let hostMap = new HostMap();
  try {
    hostMap = HostMap.parse(String(e.EGRESS_HOST_MAP));
  } catch (err) {
    problems.push(`EGRESS_HOST_MAP: ${(err as Error).message}`);
  }
  if (e.NODE_ENV === "production" && String(e.EGRESS_HOST_MAP).trim()) {
    problems.push(
      "EGRESS_HOST_MAP must be empty in production: it serves fixture pages under real host names (tests and development only)",
    );
  } else if (hostMap.size > 0 && !allowRanges.includes("loopback")) {
    problems.push("EGRESS_HOST_MAP needs TARGET_ALLOW_RANGES to include loopback: its targets are loopback addresses");
  }
  const trustedSpki = String(e.BROWSER_TRUSTED_SPKI)
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  for (const k of trustedSpki)
    if (!/^[A-Za-z0-9+/]{43}=$/.test(k)) problems.push(`BROWSER_TRUSTED_SPKI: "${k}" is not a base64 SHA-256 hash`);
  if (e.NODE_ENV === "production" && trustedSpki.length > 0) {
    problems.push(
      "BROWSER_TRUSTED_SPKI must be empty in production: the browser would accept those certificates for any site",
    );
  }
  if (e.NODE_ENV === "production" && /(^|\.)localhost$/i.test(e.MAIL_DOMAIN)) {
    problems.push("MAIL_DOMAIN must be a real domain in production (its MX record points at mail-in)");
  }
  const dnsServers = String(e.MAIL_DNS_SERVERS)
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean);
  for (const d of dnsServers) {
    const m = /^(?:\[([^\]]+)\]|([^:\s]+))(?::(\d{1,5}))?$/.exec(d) ?? /^([0-9a-f:]+)$/i.exec(d);
    const address = m?.[1] ?? m?.[2] ?? "";
    if (!isIP(address) || (m?.[3] !== undefined && !(Number(m[3]) >= 1 && Number(m[3]) <= 65535)))
      problems.push(`MAIL_DNS_SERVERS: "${d}" is not an IP address with an optional port`);
  }
  const arcSealers = String(e.MAIL_ARC_TRUSTED_SEALERS)
    .split(",")
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  if (e.CAPTCHA_SOLVER !== "off" && !e.CAPTCHA_SOLVER_KEY)
    problems.push(`CAPTCHA_SOLVER_KEY is required with CAPTCHA_SOLVER=${e.CAPTCHA_SOLVER}`);
  if (e.NODE_ENV === "production" && e.CAPTCHA_SOLVER !== "off" && !/^https:/i.test(e.CAPTCHA_SOLVER_URL)) {
    problems.push("CAPTCHA_SOLVER_URL must be https in production: the API key travels with every request");
  }
  const cookieSecure: boolean = e.DASHBOARD_COOKIE_SECURE ?? !(e.NODE_ENV === "development" || e.NODE_ENV === "test");
  if (e.NODE_ENV === "production" && !cookieSecure)
    problems.push("DASHBOARD_COOKIE_SECURE must not be false in production: sign-in cookies would travel in clear");
  if (e.NODE_ENV === "production" && e.DASHBOARD_URL && !/^https:/i.test(e.DASHBOARD_URL)) {
    problems.push("DASHBOARD_URL must be https in production: passwords and sign-in cookies travel to it");
  }
  if (e.WORKER_LOCK_MS < e.REDIS_FAILOVER_WAIT_MS + LOCK_RENEW_MIN_MS + LOCK_RENEW_MARGIN_MS) {
    problems.push(
      `WORKER_LOCK_MS must be at least REDIS_FAILOVER_WAIT_MS + ${(LOCK_RENEW_MIN_MS + LOCK_RENEW_MARGIN_MS) / 1000} s: a running job's claim must outlast a Redis failover the service waits out, or a live worker's job is run a second time`,
    );
  }
  if (e.WORKER_STALLED_CHECK_MS >= e.WORKER_LOCK_MS) {
    problems.push(
      "WORKER_STALLED_CHECK_MS must be below WORKER_LOCK_MS: a dead worker's job is found only by a check after its claim lapsed",
    );
  }
  const regions = [
    ...new Set(
      String(e.WORKER_REGIONS)
        .split(",")
        .map((r) => r.trim())
        .filter(Boolean),
    ),
  ];
  for (const r of regions)
    if (!new RegExp(REGION_PATTERN).test(r))
      problems.push(
        `WORKER_REGIONS: "${r}" is not a region name (lowercase letters, digits and dashes, starting with a letter, 32 at most)`,
      );
  if (problems.length) throw new ConfigError(problems);

  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    redis: { ...redis, prefix: e.REDIS_PREFIX, failoverWaitMs: e.REDIS_FAILOVER_WAIT_MS },
    crypto: { keyRing: e.ENCRYPTION_KEYS, activeKeyVersion: e.ENCRYPTION_ACTIVE_KEY, fingerprintKey },
    gateway: {
      host: e.GATEWAY_HOST,
      port: e.GATEWAY_PORT,
      maxBodyBytes: e.GATEWAY_MAX_BODY_BYTES,
      waitMs: e.GATEWAY_WAIT_MS,
      rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
      trustProxy: e.TRUST_PROXY,
    },
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      regions,
      regionWaitMs: e.REGION_WAIT_MS,
      orgMaxRunningJobs: e.ORG_MAX_RUNNING_JOBS,
      siteMaxRunningJobs: e.SITE_MAX_RUNNING_JOBS,
      jobTimeoutMs: e.JOB_TIMEOUT_MS,
      attempts: e.JOB_ATTEMPTS,
      backoffMs: e.JOB_BACKOFF_MS,
      shutdownTimeoutMs: e.WORKER_SHUTDOWN_TIMEOUT_MS,
      lockMs: e.WORKER_LOCK_MS,
      lockRenewMs: lockRenewMs(e.WORKER_LOCK_MS, e.REDIS_FAILOVER_WAIT_MS),
      stalledCheckMs: e.WORKER_STALLED_CHECK_MS,
      maxStalled: e.WORKER_MAX_STALLED,
      sweepEveryMs: e.JOB_SWEEP_EVERY_MS,
      statsEveryMs: e.JOB_STATS_EVERY_MS,
      siteStatsEveryMs: e.JOB_STATS_SITES_EVERY_MS,
      healthPort: e.WORKER_HEALTH_PORT,
      chromiumPath: chromiumPath(e.BROWSER_MODE, { CHROMIUM_PATH: e.CHROMIUM_PATH }),
      browserMode: e.BROWSER_MODE,
      browserRecycle: {
        afterJobs: e.BROWSER_RECYCLE_AFTER_JOBS,
        aboveBytes: e.BROWSER_RECYCLE_ABOVE_MIB * 1024 * 1024,
      },
      trustedSpki,
    },
    targets: {
      allowRanges,
      hostMap,
      proxyAllow: String(e.EGRESS_PROXY_ALLOW)
        .split(",")
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean),
    },
    session: {
      ttlSeconds: e.SESSION_TTL_SECONDS,
      checkMaxAgeSeconds: e.SESSION_CHECK_MAX_AGE,
      checkTimeoutMs: e.SESSION_CHECK_TIMEOUT_MS,
    },
    retention: {
      sessionHours: e.SESSION_RETENTION_HOURS,
      jobDays: e.JOB_RETENTION_DAYS,
      messageMinutes: e.MESSAGE_RETENTION_MINUTES,
    },
    mail: {
      domain: String(e.MAIL_DOMAIN).toLowerCase(),
      smtpHost: e.MAIL_SMTP_HOST,
      smtpPort: e.MAIL_SMTP_PORT,
      healthPort: e.MAIL_HEALTH_PORT,
      maxBytes: e.MAIL_MAX_BYTES,
      dnsServers,
      arcTrustedSealers: arcSealers,
    },
    mfa: { waitMs: e.MFA_WAIT_MS },
    handoff: { maxWaitMs: e.HANDOFF_MAX_WAIT_MS, maxWaitingPerOrg: e.HANDOFF_MAX_WAITING_PER_ORG },
    sms: { twilioAuthToken: e.TWILIO_AUTH_TOKEN, webhookUrl: e.SMS_WEBHOOK_URL },
    webhooks: { attempts: e.WEBHOOK_ATTEMPTS, backoffMs: e.WEBHOOK_BACKOFF_MS },
    keepAlive: {
      everyMs: e.KEEPALIVE_EVERY_MS,
      beforeExpiryMinutes: e.KEEPALIVE_BEFORE_EXPIRY_MINUTES,
      maxAgeHours: e.KEEPALIVE_MAX_AGE_HOURS,
      checksPerRun: e.KEEPALIVE_CHECKS_PER_RUN,
      checksPerSite: e.KEEPALIVE_CHECKS_PER_SITE,
    },
    dashboard: {
      host: e.DASHBOARD_HOST,
      port: e.DASHBOARD_PORT,
      ...(e.DASHBOARD_URL ? { url: String(e.DASHBOARD_URL).replace(/\/+$/, "") } : {}),
      sessionTtlHours: e.DASHBOARD_SESSION_TTL_HOURS,
      cookieSecure,
    },
    captchaSolver:
      e.CAPTCHA_SOLVER === "off"
        ? null
        : // A solver without its key is one of the problems thrown above.
          { provider: e.CAPTCHA_SOLVER, url: e.CAPTCHA_SOLVER_URL, key: e.CAPTCHA_SOLVER_KEY! },
  };
}
