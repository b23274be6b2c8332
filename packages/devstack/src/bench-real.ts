import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { benchApp } from "./bench-real-app";
import { BASELINE_BROWSER } from "./bench-real-baseline";
import { fmtMs, oneLine, realAppsTable, type Row } from "./bench-real-table";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { REPO_ROOT, DATA_DIR } from "./repo-root";
import { recreateDatabase } from "./reset-database";
import { startStack, type Stack } from "./stack";
import { testStackEnv } from "./test-env";
import { REAL_APPS } from "./real-apps";
import { LOG_DIR, MAIL_SMTP_PORT, REAL_APPS_DIR, say } from "./real-apps/places";
import { stopAll } from "./real-apps/processes";
import type { RealApp } from "./real-apps/real-app";

/**
 * `pnpm bench:real` (issue 46, Must 2): real applications installed from Debian and npm, served on
 * 127.0.0.1, each with a known account; per application a hand-written Puppeteer login (the baseline) and
 * the service's answers through POST /v1/login — first login (detection), learned login, wrong password,
 * and TOTP, a second login name or a sign-up (POST /v1/signup) where the application has them — each session
 * proven in a fresh browser context. docs/real-apps.md describes it. Prints one table. Failures of the service are data: the bench exits 0 once the table is printed,
 * and non-zero only when an application could not be installed or started.
 *
 *   pnpm bench:real                      every application
 *   pnpm bench:real wordpress adminer    only these
 *   pnpm bench:real --write-docs         also puts the table into docs/real-apps.md
 *   pnpm bench:real --baseline-only      the applications and their hand-written logins, not the service
 */

const WRITE_DOCS = process.argv.includes("--write-docs");
/** Only the applications and their baselines (no service): for writing an application module. */
const BASELINE_ONLY = process.argv.includes("--baseline-only");
const DOCS = path.join(REPO_ROOT, "docs", "real-apps.md");

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const unknown = wanted.filter((w) => !REAL_APPS.some((a) => a.name === w));
  if (unknown.length)
    throw new Error(`unknown application(s): ${unknown.join(", ")}; known: ${REAL_APPS.map((a) => a.name).join(", ")}`);
  const apps = wanted.length ? REAL_APPS.filter((a) => wanted.includes(a.name)) : REAL_APPS;
  const began = performance.now();
  const broken: Array<{ app: string; why: string }> = [];
  mkdirSync(LOG_DIR, { recursive: true });

  // 1. Install and start, one application at a time (installs are heavy; the machine is shared).
  const ready: RealApp[] = [];
  for (const app of apps) {
    const t = performance.now();
    say(`${app.name}: install`);
    try {
      await app.install();
      say(`${app.name}: start (installed in ${fmtMs(performance.now() - t)})`);
      await app.start();
      ready.push(app);
    } catch (err) {
      broken.push({ app: app.name, why: (err as Error).message });
      say(`${app.name}: FAILED: ${(err as Error).message}`);
    }
  }
  const setupMs = performance.now() - began;
  say(`installed and started ${ready.length}/${apps.length} in ${fmtMs(setupMs)}`);

  if (!ready.length)
    throw new Error(
      `no application could be installed and started: ${broken.map((b) => `${b.app}: ${b.why}`).join("; ")}`,
    );
  // 2. The service: gateway and worker on a throwaway database, loopback targets allowed.
  const env = testStackEnv("benchreal", {
    LOG_LEVEL: "warn",
    BROWSER_MODE: process.env.BROWSER_MODE === "shell" ? "shell" : "full",
    GATEWAY_WAIT_MS: "170000",
    JOB_TIMEOUT_MS: "90000",
    RATE_LIMIT_PER_MINUTE: "1000000",
    // Sign-up mail from the applications reaches mail-in here (their SMTP settings name this port).
    MAIL_SMTP_PORT: String(MAIL_SMTP_PORT),
    MFA_WAIT_MS: "120000",
  });
  let stack: Stack | null = null;
  let db: Database | null = null;
  if (!BASELINE_ONLY) {
    await recreateDatabase(env.DATABASE_URL!);
    stack = await startStack({
      env,
      logs: { dir: path.join(DATA_DIR, "logs", "bench-real") },
      apiOnly: !ready.some((a) => a.signup),
    });
    db = Database.fromConfig(loadConfig(stack.env), 1);
  }
  const browser = await puppeteer.launch(BASELINE_BROWSER);
  const rows: Row[] = [];
  const runStarted = performance.now();
  try {
    for (const app of ready) {
      say(`${app.name}: logins`);
      // An organization per application: its first login detects the form, the next ones replay what it learned.
      const key = db
        ? (await db.apiKeys.create((await db.organizations.create(`Real ${app.name}`)).id, "bench-real")).key
        : "";
      rows.push(...(await benchApp(app, browser, stack, key)));
    }
  } finally {
    await browser.close().catch(() => undefined);
    await db?.close();
    await stack?.stop();
    await stopAll();
  }
  const runMs = performance.now() - runStarted;

  const table = realAppsTable(rows);
  const summary = [
    `authsvc bench:real — ${new Date().toISOString()}; ${os.cpus().length} CPUs, Node ${process.version}`,
    `applications: ${ready.length} of ${apps.length} installed and started (${fmtMs(setupMs)}); logins ${fmtMs(runMs)}`,
    `cases as expected: ${rows.filter((r) => r.ok).length} of ${rows.length}`,
    ...broken.map((b) => `NOT RUN ${b.app}: ${oneLine(b.why, 300)}`),
  ].join("\n");
  process.stdout.write(`\n${table}\n\n${summary}\n`);
  writeFileSync(path.join(REAL_APPS_DIR, "last-table.md"), `${table}\n\n${summary}\n`);
  if (WRITE_DOCS) {
    const doc = readFileSync(DOCS, "utf8");
    const begin = "<!-- bench:real table -->";
    const end = "<!-- /bench:real table -->";
    const at = doc.indexOf(begin);
    const to = doc.indexOf(end);
    if (at < 0 || to < 0) throw new Error(`${DOCS} has no ${begin} … ${end} markers`);
    writeFileSync(DOCS, `${doc.slice(0, at + begin.length)}\n${table}\n\n\`\`\`\n${summary}\n\`\`\`\n${doc.slice(to)}`);
  }
  if (broken.length) {
    process.stderr.write(
      `\nbench:real: ${broken.length} application(s) could not be installed or started: ${broken.map((b) => b.app).join(", ")} (logs in ${LOG_DIR})\n`,
    );
    process.exitCode = 1;
  }
}

// Interrupted: the applications started so far are stopped, as at the end of a run.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench:real: ${signal}, stopping the applications\n`);
    void stopAll().finally(() => process.exit(130));
  });
}

main().then(
  () => process.exit(),
  async (err) => {
    await stopAll();
    process.stderr.write(`bench:real failed: ${(err as Error).stack ?? err}\n`);
    process.exit(2);
  },
);
