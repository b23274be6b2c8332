import { text, type EnvVars } from "./env-var";

/** What a running job waits for (a person, a code), and what runs around jobs: keep-alive, webhooks. */
export const JOBS_VARS = {
  HANDOFF_MAX_WAIT_MS: {
    type: "integer",
    minimum: 1000,
    maximum: 3600000,
    default: 600000,
    description: text(
      "How long a job that allowed a hand-off (`allowHandoff`) waits for a person's input in all, however",
      "many answers it takes; it holds its browser page and a slot of its organization's",
      "`ORG_MAX_RUNNING_JOBS` meanwhile, then ends `input_timeout`. 10 minutes by default, an hour at most.",
    ),
  },
  HANDOFF_MAX_WAITING_PER_ORG: {
    type: "integer",
    minimum: 1,
    default: 20,
    description: text(
      "How many of one organization's jobs may wait for a person at once; a job past it ends as without a",
      "hand-off (`mfa_required`, the message says why).",
    ),
  },
  MFA_WAIT_MS: {
    type: "integer",
    minimum: 1000,
    default: 120000,
    description: text(
      "How long a login waits for a code or link by email or SMS; then it ends in `timeout`, naming what it",
      "waited for. The job's time limit grows by this much for logins that may wait.",
    ),
  },
  KEEPALIVE_EVERY_MS: {
    type: "integer",
    minimum: 0,
    default: 300000,
    description: text(
      "How often the keep-alive job runs (a BullMQ job scheduler, once per interval however many workers).",
      "0 switches it off.",
    ),
  },
  KEEPALIVE_BEFORE_EXPIRY_MINUTES: {
    type: "integer",
    minimum: 1,
    default: 15,
    description: text(
      "A credential's newest session is refreshed (a login with its stored secret) when it expires within",
      "this many minutes.",
    ),
  },
  KEEPALIVE_MAX_AGE_HOURS: {
    type: "integer",
    minimum: 0,
    default: 0,
    description: "Also refresh sessions older than this, whatever their cookies say (0: by expiry only).",
  },
  KEEPALIVE_CHECKS_PER_RUN: {
    type: "integer",
    minimum: 0,
    default: 200,
    description: text(
      "Each keep-alive run checks this many sessions not checked for `SESSION_CHECK_MAX_AGE`, least",
      "recently checked first (4 at a time), so callers' hits find them checked. One found signed out ends",
      "(`session.expired`, reason `revoked`, unless a refresh with the stored secret replaces it); a page a",
      "plain request cannot read (the same for everyone: an app signed in from storage) is checked in a",
      "browser holding the session, at most 10 a run; one still unread is left alone, never logged in on. A",
      "run refreshes what is about to end first, then checks, and starts checks only within its interval",
      "(at least 10 s): checks never hold a refresh back, whatever `SESSION_CHECK_MAX_AGE` is (`0`",
      "included); what a run did not check stays due for the next. `0`: no background checks.",
    ),
  },
  KEEPALIVE_CHECKS_PER_SITE: {
    type: "integer",
    minimum: 1,
    default: 10,
    description: "Of those, at most this many on one site (origin) per run.",
  },
  WEBHOOK_ATTEMPTS: {
    type: "integer",
    minimum: 1,
    maximum: 20,
    default: 8,
    description: text(
      "Attempts to deliver one webhook event. 5xx, 408, 429, timeouts (10 s) and network faults are",
      "retried; other 4xx answers are final.",
    ),
  },
  WEBHOOK_BACKOFF_MS: {
    type: "integer",
    minimum: 0,
    default: 5000,
    description: "First retry delay of a webhook delivery; doubles each attempt (8 attempts span about 10 minutes).",
  },
} as const satisfies EnvVars;
