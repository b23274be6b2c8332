import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { CHROMIUM_ARGS } from "@authsvc/browser";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { DATA_DIR } from "./repo-root";
import { deleteRedisPrefix, recreateDatabase } from "./reset-database";
import { benchInbox } from "./bench-inbox";
import { benchSignup } from "./bench-signup";
import { benchOAuth } from "./bench-oauth";
import { benchLoginEngine } from "./bench-login-engine";
import { benchCached } from "./bench-cached";
import { startStack } from "./stack";
import { testStackEnv } from "./test-env";

const FRESH_RUNS = Number(process.env.BENCH_FRESH_RUNS ?? 10);
const CACHED_REQUESTS = Number(process.env.BENCH_CACHED_REQUESTS ?? 2000);
const CACHED_CONCURRENCY = Number(process.env.BENCH_CACHED_CONCURRENCY ?? 16);
const ENGINE_ROUNDS = Number(process.env.BENCH_ENGINE_ROUNDS ?? 3);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(label: string, ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `${label.padEnd(44)} n=${String(s.length).padEnd(5)} p50=${percentile(s, 50).toFixed(1).padStart(7)} ms  p99=${percentile(s, 99).toFixed(1).padStart(7)} ms  mean=${mean.toFixed(1).padStart(7)} ms`;
}

function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

function treeRssMiB(pid: number): number {
  let children: number[] = [];
  try {
    children = execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    children = [];
  }
  return rssMiB(pid) + children.reduce((sum, child) => sum + treeRssMiB(child), 0);
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

/** What a customer would write without us: plain Puppeteer, one page, one known form. */
async function handWrittenLogins(loginUrl: string, username: string, password: string, runs: number): Promise<number[]> {
  const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS });
  const times: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const [ms] = await timed(async () => {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        await page.goto(loginUrl, { waitUntil: "domcontentloaded" });
        await page.type('input[name="username"]', username);
        await page.type('input[name="password"]', password);
        await Promise.all([page.waitForNavigation({ waitUntil: "domcontentloaded" }), page.click('button[type="submit"]')]);
        const cookies = await context.cookies();
        if (!cookies.some((c) => c.name === "classic_sid")) throw new Error("hand-written login failed");
        await context.close();
      });
      times.push(ms);
    }
  } finally {
    await browser.close();
  }
  return times;
}

async function main(): Promise<void> {
  const env = testStackEnv("bench", { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "1000000" });
  await recreateDatabase(env.DATABASE_URL!);
  const stack = await startStack({ env, logs: { dir: path.join(DATA_DIR, "logs", "bench") } });
  const db = Database.fromConfig(loadConfig(stack.env), 1);
  try {
    const org = await db.organizations.create("Bench");
    const { key } = await db.apiKeys.create(org.id, "bench");
    await db.close();
    stack.sites.accounts.addUser("bench", "bench-password");
    const loginUrl = `${stack.sites.url}/classic/login`;
    const login = async (useCache: boolean) => {
      const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ domain: loginUrl, login_method: "password", cred: { username: "bench", password: "bench-password" }, useCache }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`login answered ${res.status}`);
      return res.headers.get("x-auth-cache");
    };

    process.stdout.write(`authsvc benchmark — ${new Date().toISOString()}, ${(await import("node:os")).cpus().length} cores, Node ${process.version}\n`);
    process.stdout.write(`target: ${loginUrl} (classic form POST + 302 + HttpOnly cookie), all on loopback\n\n`);

    await login(false); // warm-up: Chromium, connection pools, JIT
    const fresh: number[] = [];
    for (let i = 0; i < FRESH_RUNS; i++) fresh.push((await timed(() => login(false)))[0]);
    const handWritten = await handWrittenLogins(loginUrl, "bench", "bench-password", FRESH_RUNS);

    if ((await login(true)) !== "hit") throw new Error("expected a cache hit after a fresh login");
    const cached: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CACHED_CONCURRENCY }, async () => {
        while (next++ < CACHED_REQUESTS) cached.push((await timed(() => login(true)))[0]);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const inbox = await benchInbox(stack, key, FRESH_RUNS, timed);
    const signups = await benchSignup(stack, key, FRESH_RUNS, timed);
    const oauth = await benchOAuth(stack, key, FRESH_RUNS, timed);
    const cachedVsBare = await benchCached(stack, key);

    const lines = [
      summary("fresh login through the service (HTTP->queue->browser)", fresh),
      summary("hand-written Puppeteer script, same page", handWritten),
      summary(`cached login (concurrency ${CACHED_CONCURRENCY})`, cached),
      `${"cached login throughput".padEnd(44)} ${(cached.length / seconds).toFixed(0)} requests/s`,
      ...cachedVsBare.map((r) => `${`cached login vs bare Express (c=${r.concurrency})`.padEnd(44)} ${JSON.stringify(r)}`),
      summary("mail-in: SMTP send, parse, encrypt, store", inbox.smtpAccept),
      summary("mail-in: send start -> subscriber woken", inbox.wake),
      summary("otp_email login (form, mail, code) service", inbox.otpEmail),
      summary("magic_link login (form, mail, link) service", inbox.magicLink),
      summary("signup, signed in at once (JS form)", signups.instant),
      summary("signup + emailed 6-digit code", signups.code),
      summary("signup + emailed link + login", signups.linkThenLogin),
      summary("password login on an OAuth site's own form", oauth.password),
      summary("OAuth login, provider password + consent", oauth.oauthFirst),
      summary("OAuth login, kept provider session", oauth.oauthKept),
      `${"memory after the run (RSS)".padEnd(44)} gateway ${treeRssMiB(stack.processes.gateway.pid!).toFixed(0)} MiB, worker + Chromium ${treeRssMiB(stack.processes.worker.pid!).toFixed(0)} MiB, mail-in ${treeRssMiB(stack.processes.mailIn.pid!).toFixed(0)} MiB`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    await db.close().catch(() => undefined);
    await stack.stop();
    await deleteRedisPrefix(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!);
  }
  if (ENGINE_ROUNDS > 0) await benchLoginEngine(ENGINE_ROUNDS, (line) => process.stdout.write(`${line}\n`));
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
