import { DEFAULT_CHROMIUM } from "../chromium";
import { text, type EnvVars } from "./env-var";

/** The worker: its jobs, its claims on them, its scheduled tasks and its Chromium. */
export const WORKER_VARS = {
  WORKER_CONCURRENCY: {
    type: "integer",
    minimum: 1,
    maximum: 64,
    default: 2,
    description: text(
      "Logins one worker process runs at once (each in its own browser context), across every queue it",
      "serves.",
    ),
  },
  WORKER_REGIONS: {
    type: "string",
    default: "",
    description: text(
      "The worker regions this worker serves (`eu` or `eu,us`), besides the jobs of no region that every",
      "worker takes. A request's `region` runs only on a worker of that region. See",
      "[Regions](api.md#regions).",
    ),
  },
  REGION_WAIT_MS: {
    type: "integer",
    minimum: 0,
    maximum: 600000,
    default: 10000,
    description: text(
      "How long a job that asks for a region with no worker running waits for one to appear before the",
      "request is refused (`region_unavailable`). A queued job of a region whose last worker left is ended",
      "after this long too.",
    ),
  },
  ORG_MAX_RUNNING_JOBS: {
    type: "integer",
    minimum: 0,
    maximum: 10000,
    default: 10,
    description: text(
      "Browser jobs (logins, signups, refreshes) of one organization running at once, across all worker",
      "processes; the rest wait, `queued`, and start as slots free. 0: no cap. See",
      "[concurrency caps](#concurrency-caps).",
    ),
  },
  SITE_MAX_RUNNING_JOBS: {
    type: "integer",
    minimum: 0,
    maximum: 10000,
    default: 5,
    description: text(
      "Jobs running at once against one site — the login page's host name (`accounts.example.com`; port",
      "ignored) — across all organizations and workers. 0: no cap.",
    ),
  },
  JOB_TIMEOUT_MS: {
    type: "integer",
    minimum: 1000,
    default: 45000,
    description: "Time limit of one login attempt in the browser.",
  },
  JOB_ATTEMPTS: {
    type: "integer",
    minimum: 1,
    maximum: 10,
    default: 3,
    description: text(
      "Attempts for transient faults (unreachable site, timeout, browser crash before submit). Refused",
      "credentials are never retried.",
    ),
  },
  JOB_BACKOFF_MS: {
    type: "integer",
    minimum: 0,
    default: 2000,
    description: "First retry delay; doubles each attempt.",
  },
  WORKER_SHUTDOWN_TIMEOUT_MS: {
    type: "integer",
    minimum: 1000,
    default: 60000,
    description: "On SIGTERM, how long the worker lets active logins finish before it exits anyway.",
  },
  WORKER_LOCK_MS: {
    type: "integer",
    minimum: 2000,
    default: 30000,
    description: text(
      "How long a worker's claim on a running job lasts without renewal. A job whose worker died is taken",
      "over once its claim lapsed: see [operations.md](operations.md#failure-behaviour). It must be at",
      "least `REDIS_FAILOVER_WAIT_MS` + 3 s: the claim is renewed every",
      "`min(WORKER_LOCK_MS / 2, WORKER_LOCK_MS − REDIS_FAILOVER_WAIT_MS − 2 s)` (8 s with the defaults), so",
      "a renewal held up by a failover the service waits out still lands before the claim lapses, and a",
      "live worker's job is never run a second time.",
    ),
  },
  WORKER_STALLED_CHECK_MS: {
    type: "integer",
    minimum: 500,
    default: 10000,
    description: text(
      "How often workers look for jobs whose claim lapsed; must be below `WORKER_LOCK_MS`. A dead worker's",
      "job runs again within `WORKER_LOCK_MS + WORKER_STALLED_CHECK_MS` (40 s).",
    ),
  },
  WORKER_MAX_STALLED: {
    type: "integer",
    minimum: 0,
    maximum: 10,
    default: 1,
    description: text(
      "How many times a job whose worker died is run again; past it the job fails (`internal_error`, or",
      "`login_unconfirmed` once its password was submitted), so a page that kills workers cannot take them",
      "all down.",
    ),
  },
  JOB_SWEEP_EVERY_MS: {
    type: "integer",
    minimum: 1000,
    default: 60000,
    description: text(
      "How often the sweep looks for jobs open in the database that the queue no longer runs (Redis lost",
      "its data, a job failed without its record being ended): queued ones are queued again, the others",
      "ended.",
    ),
  },
  JOB_STATS_EVERY_MS: {
    type: "integer",
    minimum: 1000,
    default: 60000,
    description: text(
      "How often a worker brings the dashboard's hourly job counts (its charts) up to date with the jobs",
      "that finished since; each run counts the current hour again (and the previous one in its first 15",
      "minutes). See [dashboard.md](dashboard.md#charts).",
    ),
  },
  JOB_STATS_SITES_EVERY_MS: {
    type: "integer",
    minimum: 1000,
    default: 300000,
    description: text(
      "How often the dashboard's per-site numbers (each organization's busiest sites and those whose",
      "success rate fell) are computed again from the hourly counts: one pass over 8 days of them.",
    ),
  },
  WORKER_HEALTH_PORT: {
    type: "integer",
    minimum: 0,
    maximum: 65535,
    default: 8081,
    description: "Port of the worker's `/healthz` and `/readyz`.",
  },
  BROWSER_MODE: {
    type: "string",
    enum: ["full", "shell"],
    default: "full",
    description: text(
      "`full`: Chromium's new headless mode, the whole browser without a screen (a site sees a real",
      "Chrome). `shell`: `chromium-headless-shell`, the old headless mode: no browser windows, so about 40%",
      "less CPU and memory per login ([performance](performance.md#the-headless-shell)), but sites that",
      "look for automation tell it apart more easily. A pool of shell workers can serve sites known to be",
      "friendly as a [worker region](api.md#regions) of its own.",
    ),
  },
  CHROMIUM_PATH: {
    type: "string",
    docDefault: `\`${DEFAULT_CHROMIUM.full}\` (\`${DEFAULT_CHROMIUM.shell}\` with \`BROWSER_MODE=shell\`)`,
    description: text(
      "Chromium to drive (Debian's `chromium` or `chromium-headless-shell` package). For the shell, the",
      "binary itself: the package's `/usr/bin/chromium-headless-shell` is a script that runs it without",
      "`exec`, and a kill of the launched process would leave the browser running.",
    ),
  },
  BROWSER_RECYCLE_AFTER_JOBS: {
    type: "integer",
    minimum: 0,
    default: 500,
    description: text(
      "A worker replaces its Chromium with a fresh one after this many jobs (`0`: never). Jobs still",
      "running in the old one finish there; it closes after them.",
    ),
  },
  BROWSER_RECYCLE_ABOVE_MIB: {
    type: "integer",
    minimum: 0,
    default: 1024,
    description: text(
      "…or as soon as, after a job, Chromium's processes together hold more memory than this (their PSS",
      "summed: shared pages counted once; read after a job at most every 5 s, as the read walks every",
      "Chromium process) (`0`: never). Keep it well below the worker pod's memory limit (1536 MiB in",
      "`infra/base`) minus the worker's own Node heap.",
    ),
  },
} as const satisfies EnvVars;
