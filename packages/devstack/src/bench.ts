import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { DATA_DIR, REPO_ROOT } from "./repo-root";
import { deleteRedisPrefix, recreateDatabase } from "./reset-database";
import { benchInbox } from "./bench-inbox";
import { benchSignup } from "./bench-signup";
import { benchOAuth } from "./bench-oauth";
import { benchProxy } from "./bench-proxy";
import { benchPasskeyPrompt } from "./bench-passkey";
import { BENCH_BROWSER, benchLoginEngine } from "./bench-login-engine";
import { benchFreshLogin } from "./bench-fresh-login";
import { benchFleet } from "./bench-fleet";
import { benchCached, benchCheckedHits } from "./bench-cached";
import { cachedLoginRows, fleetRows, freshLoginRows, otherPathRows } from "./bench-rows";
import { benchTable, type Row } from "./bench-table";
import { startStack } from "./stack";
import { testStackEnv } from "./test-env";

const FRESH_RUNS = Number(process.env.BENCH_FRESH_RUNS ?? 10);
const FLEET_LOGINS = Number(process.env.BENCH_FLEET_LOGINS ?? 200);
const ENGINE_ROUNDS = Number(process.env.BENCH_ENGINE_ROUNDS ?? 1);
const WRITE_DOCS = process.argv.includes("--write-docs") || process.env.BENCH_WRITE_DOCS === "1";
// The sections to run (comma-separated: fresh, cached, other, fleet, engine), for a quick loop on one figure;
// all by default. --write-docs only with all of them, so the table in the docs stays whole.
const SECTIONS = new Set((process.env.BENCH_ONLY ?? "fresh,cached,other,fleet,engine").split(",").map((s) => s.trim()));
const runs = (section: string) => SECTIONS.has(section);
const DOCS = path.join(REPO_ROOT, "docs", "performance.md");

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

function machine(): string {
  let chromium = "Chromium";
  try {
    chromium = execFileSync(BENCH_BROWSER.executablePath, ["--version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // not installed where we looked; the bench would have failed earlier
  }
  return `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}, ${chromium}`;
}

async function main(): Promise<void> {
  const env = testStackEnv("bench", {
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_MINUTE: "1000000",
    // Mail arrives in well under a second here, but a loaded machine must not turn a slow delivery into a failure.
    MFA_WAIT_MS: "60000",
    GATEWAY_WAIT_MS: "120000",
    JOB_TIMEOUT_MS: "45000",
    // BROWSER_MODE=shell pnpm bench: the same figures with chromium-headless-shell.
    BROWSER_MODE: BENCH_BROWSER.mode,
    // The dashboard's rollups at their production pace (the test stacks run them every two seconds).
    JOB_STATS_EVERY_MS: "60000",
    JOB_STATS_SITES_EVERY_MS: "300000",
    // Recycled during the fleet run, so its cost shows in the fleet's figures.
    BROWSER_RECYCLE_AFTER_JOBS: process.env.BENCH_RECYCLE_AFTER_JOBS ?? "40",
  });
  await recreateDatabase(env.DATABASE_URL!);
  const stack = await startStack({ env, logs: { dir: path.join(DATA_DIR, "logs", "bench") } });
  const rows: Row[] = [];
  const started = new Date();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  try {
    const db = Database.fromConfig(loadConfig(stack.env), 1);
    const benchOrg = await db.organizations.create("Bench");
    const { key } = await db.apiKeys.create(benchOrg.id, "bench");
    await db.close();
    say(
      `authsvc benchmark — ${started.toISOString()}\n${machine()}\nall targets on loopback; each section prints as it ends, the whole table at the end\n`,
    );

    // 1. A fresh login, side by side with a hand-written script on the same page (issue 15, item 3).
    rows.push(...freshLoginRows(runs("fresh") ? await benchFreshLogin(stack, FRESH_RUNS) : []));
    if (rows.length) say(benchTable(rows));

    // 2. A cached login against a bare Express endpoint returning the same JSON (item 4).
    const cached = runs("cached") ? await benchCached(stack, key) : [];
    // Hits whose entry is due a session check (SESSION_CHECK_MAX_AGE passed): the site is asked first.
    const checked = runs("cached") ? await benchCheckedHits(stack, key, benchOrg.id) : null;
    const cachedRows = cachedLoginRows(cached, checked);
    rows.push(...cachedRows);
    if (cachedRows.length) say(benchTable(cachedRows));

    // 3. The other paths, for reference.
    if (runs("other")) {
      const otherRows = otherPathRows(
        {
          inbox: await benchInbox(stack, key, FRESH_RUNS, timed),
          signups: await benchSignup(stack, key, FRESH_RUNS, timed),
          oauth: await benchOAuth(stack, key, FRESH_RUNS, timed),
          proxied: await benchProxy(stack, key, FRESH_RUNS, timed),
          passkey: await benchPasskeyPrompt(stack, key, FRESH_RUNS, timed),
        },
        stack,
      );
      rows.push(...otherRows);
      say(benchTable(otherRows));
    }
    // 4. The fleet under a backlog (item 5), last: it adds a worker to the stack.
    if (runs("fleet")) {
      const fleet = await benchFleet(stack, { total: FLEET_LOGINS, inFlight: 8, extraWorkers: 1 });
      const rowsOfFleet = fleetRows(fleet, env.BROWSER_RECYCLE_AFTER_JOBS);
      rows.push(...rowsOfFleet);
      say(benchTable(rowsOfFleet));
    }
  } finally {
    await stack.stop();
    await deleteRedisPrefix(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!);
  }

  const table = benchTable(rows);
  say(`\n## The whole table\n\n${table}`);
  if (WRITE_DOCS && SECTIONS.size === 5) {
    const doc = readFileSync(DOCS, "utf8");
    const block = `<!-- bench:start -->\nRun ${started.toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine()}.\n\n${table}\n<!-- bench:end -->`;
    writeFileSync(DOCS, doc.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, block));
    say(`\nwrote the table into ${path.relative(REPO_ROOT, DOCS)}`);
  }
  if (ENGINE_ROUNDS > 0 && runs("engine")) await benchLoginEngine(ENGINE_ROUNDS, say);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
