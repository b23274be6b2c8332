import { randomBytes } from "node:crypto";
import { applyMigrations } from "@authsvc/db";
import { randomKeyEnv } from "./dev-env";
import { recreateDatabase } from "./reset-database";

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Two checkouts (git worktrees) running tests side by side each set their own, so neither drops the other's databases.
const DB_SUFFIX = (process.env.TEST_DB_SUFFIX ?? "").replace(/[^a-z0-9_]/gi, "");

/**
 * The Chromium of every test stack and page-logic test: the headless shell (`BROWSER_MODE=shell`) unless
 * `TEST_BROWSER_MODE=full`. Pages are read and driven through the same Blink and DevTools protocol in both,
 * and the shell costs about 40% less CPU per login, which is most of the suite's time on a 2-core machine.
 * The whole browser, the production default, is taken through the service by whole-browser.test.ts (and
 * BrowserHost's own tests); the engine bench gives the same verdicts in both (docs/performance.md).
 */
export const TEST_BROWSER_MODE: "full" | "shell" = process.env.TEST_BROWSER_MODE === "full" ? "full" : "shell";

/** Settings of a throwaway stack: its own database and Redis prefix, fresh keys, loopback targets allowed. */
export function testStackEnv(name: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "debug",
    DATABASE_URL: `${POSTGRES_URL}/authsvc_${name}${DB_SUFFIX}`,
    REDIS_URL,
    REDIS_PREFIX: `authsvc-${name}-${randomBytes(4).toString("hex")}`,
    BROWSER_MODE: TEST_BROWSER_MODE,
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_PORT: "0",
    WORKER_HEALTH_PORT: "0",
    TARGET_ALLOW_RANGES: "loopback",
    // The production defaults: a loaded 2-core machine running the whole suite took up to 20 s for a login
    // the quiet one ran in 5, and shorter settings here ended sound logins in `timeout` (or a 202).
    GATEWAY_WAIT_MS: "55000",
    JOB_TIMEOUT_MS: "45000",
    JOB_BACKOFF_MS: "300",
    WORKER_CONCURRENCY: "2",
    RATE_LIMIT_PER_MINUTE: "100000",
    MAIL_DOMAIN: "mail.localhost",
    MAIL_SMTP_HOST: "127.0.0.1",
    MAIL_SMTP_PORT: "0",
    MAIL_HEALTH_PORT: "0",
    // Codes arrive in about a second here, several on a loaded machine; "no message arrived" tests (mail held or lost) wait this long.
    MFA_WAIT_MS: "20000",
    // A hand-off nobody answers ends after this long here (10 minutes in production). The whole hand-off,
    // all its questions, fits in it: a test's "person" answering an image challenge twice needed over 20 s on
    // a loaded 2-core machine. The one test that lets it run out waits this long.
    HANDOFF_MAX_WAIT_MS: "60000",
    // The fixture proxies (HTTP and SOCKS5) listen on loopback.
    EGRESS_PROXY_ALLOW: "127.0.0.1",
    WEBHOOK_BACKOFF_MS: "200",
    // Keep-alive looks every five seconds here; sessions are only due when a test makes them expire soon.
    // The dashboard's charts count jobs five seconds after they end here (a minute in production). Tests wait
    // for these runs (maintenanceRunsSince), not for the clock. Each run is a few queries and a queue job: at
    // every two seconds the three schedules cost an idle worker about 1.2 CPU-seconds a minute, in every stack
    // of the suite.
    KEEPALIVE_EVERY_MS: "5000",
    JOB_STATS_EVERY_MS: "5000",
    JOB_STATS_SITES_EVERY_MS: "5000",
    // No background session checks in the shared stacks: a check that found a test's session signed out would
    // start a refresh (a login) on its own timer, and the test's attempt counts would depend on the clock.
    // keep-alive.test.ts runs them, on states it sets up.
    KEEPALIVE_CHECKS_PER_RUN: "0",
    ...randomKeyEnv(),
    ...overrides,
  };
}

/**
 * A throwaway, migrated database with the settings to reach it, for tests that use the real repositories
 * without starting the whole stack.
 */
export async function freshTestDatabase(
  name: string,
  overrides: Record<string, string> = {},
): Promise<Record<string, string>> {
  const env = testStackEnv(name, { LOG_LEVEL: "silent", ...overrides });
  await recreateDatabase(env.DATABASE_URL!);
  await applyMigrations(env.DATABASE_URL!);
  return env;
}
