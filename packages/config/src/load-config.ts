import { isIP } from "node:net";
import Ajv from "ajv";
import { REGION_PATTERN, toFieldErrors } from "@authsvc/contracts";
import { HostMap } from "@authsvc/egress";
import { envSchema, type Env } from "./env-schema";
import { parseRedisTarget } from "./redis-target";
import { chromiumPath } from "./chromium";
import { mergeFields, readFields, type Computed, type ComputedFrom, type Config } from "./config-fields";

export type { Config };

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

const KNOWN_RANGES = new Set(["loopback", "private", "linkLocal", "uniqueLocal", "carrierGradeNat", "unspecified"]);
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false });
const validateEnv = ajv.compile(envSchema);

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

/** A comma-separated list's items, trimmed, empty ones left out. */
function commaList(value: string): string[] {
  return String(value)
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Parses the environment once, at start; the rest of the code reads the typed object it returns. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const e = checkedEnv(source);
  const problems: string[] = [];
  const computed = computeFields(e, problems);
  if (problems.length) throw new ConfigError(problems);
  return mergeFields(readFields(e), computed);
}

/** The environment as the schema checks it: its variables coerced, defaults filled in, or every problem thrown. */
function checkedEnv(source: Record<string, string | undefined>): Env {
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
  return env as Env;
}

/**
 * Config's computed fields (config-fields.ts), and the checks across variables, in one pass so that problems
 * are listed in the order the variables are taken. Given only the variables COMPUTED_FROM lists.
 */
function computeFields(e: ComputedFrom, problems: string[]): Computed {
  const redis = parseRedisTarget(e.REDIS_URL, e.REDIS_CLUSTER_NODES, problems);
  const fingerprintKey = Buffer.from(e.FINGERPRINT_KEY, "base64");
  if (fingerprintKey.length !== 32) problems.push("FINGERPRINT_KEY must be 32 bytes, base64");
  const allowRanges = commaList(e.TARGET_ALLOW_RANGES);
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
  const trustedSpki = commaList(e.BROWSER_TRUSTED_SPKI);
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
  const dnsServers = commaList(e.MAIL_DNS_SERVERS);
  for (const d of dnsServers) {
    const m = /^(?:\[([^\]]+)\]|([^:\s]+))(?::(\d{1,5}))?$/.exec(d) ?? /^([0-9a-f:]+)$/i.exec(d);
    const address = m?.[1] ?? m?.[2] ?? "";
    if (!isIP(address) || (m?.[3] !== undefined && !(Number(m[3]) >= 1 && Number(m[3]) <= 65535)))
      problems.push(`MAIL_DNS_SERVERS: "${d}" is not an IP address with an optional port`);
  }
  const arcSealers = commaList(e.MAIL_ARC_TRUSTED_SEALERS).map((d) => d.toLowerCase());
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
      `WORKER_LOCK_MS must be at least REDIS_FAILOVER_WAIT_MS + ${(LOCK_RENEW_MIN_MS + LOCK_RENEW_MARGIN_MS) / 1000} s: ` +
        "a running job's claim must outlast a Redis failover the service waits out, or a live worker's job is run a second time",
    );
  }
  if (e.WORKER_STALLED_CHECK_MS >= e.WORKER_LOCK_MS) {
    problems.push(
      "WORKER_STALLED_CHECK_MS must be below WORKER_LOCK_MS: a dead worker's job is found only by a check after its claim lapsed",
    );
  }
  const regions = [...new Set(commaList(e.WORKER_REGIONS))];
  for (const r of regions)
    if (!new RegExp(REGION_PATTERN).test(r))
      problems.push(
        `WORKER_REGIONS: "${r}" is not a region name (lowercase letters, digits and dashes, starting with a letter, 32 at most)`,
      );
  return {
    redis,
    crypto: { fingerprintKey },
    worker: {
      regions,
      lockRenewMs: lockRenewMs(e.WORKER_LOCK_MS, e.REDIS_FAILOVER_WAIT_MS),
      chromiumPath: chromiumPath(e.BROWSER_MODE, { CHROMIUM_PATH: e.CHROMIUM_PATH }),
      browserRecycle: {
        afterJobs: e.BROWSER_RECYCLE_AFTER_JOBS,
        aboveBytes: e.BROWSER_RECYCLE_ABOVE_MIB * 1024 * 1024,
      },
      trustedSpki,
    },
    targets: {
      allowRanges,
      hostMap,
      proxyAllow: commaList(e.EGRESS_PROXY_ALLOW).map((p) => p.toLowerCase()),
    },
    mail: { domain: String(e.MAIL_DOMAIN).toLowerCase(), dnsServers, arcTrustedSealers: arcSealers },
    dashboard: {
      ...(e.DASHBOARD_URL ? { url: String(e.DASHBOARD_URL).replace(/\/+$/, "") } : {}),
      cookieSecure,
    },
    captchaSolver:
      e.CAPTCHA_SOLVER === "off"
        ? null
        : // A solver without its key is one of the problems loadConfig throws before it uses this.
          { provider: e.CAPTCHA_SOLVER, url: e.CAPTCHA_SOLVER_URL, key: e.CAPTCHA_SOLVER_KEY! },
  };
}
