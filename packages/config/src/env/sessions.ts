import { text, type EnvVars } from "./env-var";

/** Sessions served from the cache, their checks, and how long sessions and job records are kept. */
export const SESSIONS_VARS = {
  SESSION_TTL_SECONDS: {
    type: "integer",
    minimum: 1,
    default: 3600,
    description: "Longest time a session is served from the cache (shorter when its cookies expire sooner).",
  },
  SESSION_CHECK_MAX_AGE: {
    type: "integer",
    minimum: 0,
    maximum: 86400,
    default: 120,
    description: text(
      'Seconds a session check\'s "alive" lasts: a cached session last checked longer ago is checked on the',
      "site (its signed-in page fetched with its cookies, no browser) before it is served. `0` checks on",
      'every hit. See "Cache validity" in [api.md](api.md).',
    ),
  },
  SESSION_CHECK_TIMEOUT_MS: {
    type: "integer",
    minimum: 100,
    default: 5000,
    description: text(
      'How long one request of the session check waits for the site; no answer is "cannot tell" (the login',
      "runs afresh for a caller; nothing happens in the background).",
    ),
  },
  SESSION_RETENTION_HOURS: {
    type: "integer",
    minimum: 0,
    default: 24,
    description: text(
      "How long an expired session (its encrypted cookies and storage) is kept before the retention sweep",
      "(every 5 minutes) deletes it.",
    ),
  },
  JOB_RETENTION_DAYS: {
    type: "integer",
    minimum: 1,
    default: 30,
    description: text(
      "How long the record of a finished login job is kept (the audit trail behind `GET /v1/jobs/{id}`). A",
      "failed job's encrypted input (kept for a replay) and its redacted, encrypted screenshot are deleted",
      "with it.",
    ),
  },
} as const satisfies EnvVars;
