import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import puppeteer, { type Browser, type CookieParam } from "puppeteer-core";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { REPO_ROOT, DATA_DIR } from "./repo-root";
import { recreateDatabase } from "./reset-database";
import { startStack, type Stack } from "./stack";
import { testStackEnv } from "./test-env";
import { REAL_APPS } from "./real-apps";
import { LOG_DIR, MAIL_SMTP_PORT, REAL_APPS_DIR, say } from "./real-apps/places";
import { stopAll } from "./real-apps/processes";
import { type LoginVariant, type RealApp } from "./real-apps/real-app";

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

/** The browser a user's own script would launch: Debian's Chromium, headless, these flags and no others. */
const BASELINE_BROWSER = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
const BASELINE_RUNS = Number(process.env.BENCH_REAL_BASELINE_RUNS ?? 2);
const WRITE_DOCS = process.argv.includes("--write-docs");
/** Only the applications and their baselines (no service): for writing an application module. */
const BASELINE_ONLY = process.argv.includes("--baseline-only");
const DOCS = path.join(REPO_ROOT, "docs", "real-apps.md");

interface Row {
  app: string;
  case: string;
  expected: string;
  got: string;
  ok: boolean;
  proven: string;
  ms: number | null;
  baseline: string;
}

interface Answer {
  status: number;
  body: {
    error?: { code: string; message: string };
    cookies?: Array<{
      name: string;
      value: string;
      domain: string;
      path: string;
      expires: number;
      httpOnly: boolean;
      secure: boolean;
      sameSite: "Strict" | "Lax" | "None";
    }>;
    storageState?: { origins: Array<{ origin: string; localStorage: Array<{ name: string; value: string }> }> };
    httpCredentials?: { username: string; password: string };
    userAgent?: string;
  };
  ms: number;
}

const fmtMs = (x: number | null) => (x === null ? "—" : `${(x / 1000).toFixed(1)} s`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const oneLine = (s: string, n: number) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

async function post(stack: Stack, key: string, route: string, body: unknown): Promise<Answer> {
  const start = performance.now();
  const res = await fetch(`${stack.gatewayUrl}${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", prefer: "wait=170" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(180_000),
  });
  const answer = (await res.json().catch(() => ({}))) as Answer["body"];
  return { status: res.status, body: answer, ms: performance.now() - start };
}

const login = (stack: Stack, key: string, variant: LoginVariant, cred: LoginVariant["cred"]) =>
  post(stack, key, "/v1/login", { domain: variant.loginUrl, login_method: variant.method, cred, useCache: false });

function describe(a: Answer): string {
  if (a.status === 200 || a.status === 201) return String(a.status);
  const e = a.body.error;
  return e ? `${a.status} ${e.code}: ${oneLine(e.message, 90)}` : `${a.status}`;
}

/**
 * Opens the application's account page in a fresh browser context holding only what the answer gave
 * (cookies, localStorage, HTTP credentials, the User-Agent the session was made with, which some
 * applications bind it to) and asks the application module whether it shows the account.
 */
async function prove(browser: Browser, proof: RealApp["proof"], session: Answer["body"] | null): Promise<boolean> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    if (session?.httpCredentials) await page.authenticate(session.httpCredentials);
    if (session?.userAgent) await page.setUserAgent(session.userAgent);
    const cookies: CookieParam[] = (session?.cookies ?? []).map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      httpOnly: c.httpOnly,
      secure: c.secure,
      sameSite: c.sameSite,
      ...(c.expires > 0 ? { expires: c.expires } : {}),
    }));
    if (cookies.length) await page.setCookie(...cookies);
    const origins = session?.storageState?.origins ?? [];
    if (origins.length) {
      await page.evaluateOnNewDocument((stored: typeof origins) => {
        for (const o of stored)
          if (o.origin === location.origin)
            for (const { name, value } of o.localStorage) localStorage.setItem(name, value);
      }, origins);
    }
    await page.goto(proof.url, { waitUntil: "load", timeout: 30_000 }).catch(() => undefined);
    // Single-page applications draw the account after their scripts ran and their API answered.
    await page.waitForNetworkIdle({ idleTime: 500, timeout: 10_000 }).catch(() => undefined);
    return await proof.signedIn(page);
  } catch {
    return false;
  } finally {
    await context.close();
  }
}

/** "yes", or "no" with what the answer held: the cookies' names and the localStorage keys (never a value). */
async function provenText(browser: Browser, proof: RealApp["proof"], session: Answer["body"]): Promise<string> {
  // Twice: on a loaded machine the account page can outlast the first look; a session that is not there fails both.
  if ((await prove(browser, proof, session)) || (await prove(browser, proof, session))) return "yes";
  const cookies = (session.cookies ?? []).map((c) => c.name);
  const keys = (session.storageState?.origins ?? []).flatMap((o) => o.localStorage.map((i) => i.name));
  return `no (cookies: ${cookies.join(", ") || "none"}; localStorage: ${keys.join(", ") || "none"})`;
}

/**
 * A TOTP code is accepted once (django-otp, like most, refuses a code of a step it already accepted): before a
 * login with a code, wait for a step no earlier login could have used. The wait is not part of any time.
 */
let lastTotpStep = 0;
const step = () => Math.floor(Date.now() / 30_000);
async function freshTotpStep<T>(variant: LoginVariant, fn: () => Promise<T>): Promise<T> {
  if (variant.method !== "totp") return fn();
  while (step() <= lastTotpStep) await new Promise((r) => setTimeout(r, 250));
  try {
    return await fn();
  } finally {
    lastTotpStep = step();
  }
}

/** The baseline: the application's hand-written login in a new context, timed; the median of a few runs (the first is a warm-up). */
async function baseline(
  browser: Browser,
  app: RealApp,
  variant: LoginVariant,
): Promise<{ ms: number | null; error?: string; proven: boolean }> {
  const times: number[] = [];
  let error: string | undefined;
  let proven = false;
  for (let i = 0; i <= BASELINE_RUNS && !error; i++) {
    await freshTotpStep(variant, async () => {
      // Timed as the service is: from a new context and page to the signed-in page.
      const start = performance.now();
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(30_000);
        await variant.baseline(page);
        if (i > 0) times.push(performance.now() - start);
        if (i === BASELINE_RUNS) {
          // The proof itself is checked on the baseline's session: it must pass there and fail without a session.
          const origin = new URL(page.url()).origin;
          const localStorage = await page.evaluate(() =>
            Object.entries(window.localStorage).map(([name, value]) => ({ name, value })),
          );
          const state = {
            cookies: (await context.cookies()) as unknown as Answer["body"]["cookies"],
            storageState: { origins: [{ origin, localStorage }] },
            httpCredentials: variant.httpCredentials,
          };
          proven = await prove(browser, variant.proof ?? app.proof, state);
        }
      } catch (err) {
        error = oneLine((err as Error).message, 80);
      } finally {
        await context.close();
      }
    });
  }
  return { ms: times.length ? median(times) : null, error, proven };
}

function markdownTable(rows: Row[]): string {
  const head = ["app", "case", "expected", "got", "session proven", "time", "baseline"];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const r of rows) {
    lines.push(
      `| ${[r.app, r.case, r.expected, `${r.ok ? "✓" : "✗"} ${r.got}`, r.proven, fmtMs(r.ms), r.baseline].map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`,
    );
  }
  return lines.join("\n");
}

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
      for (const variant of app.variants) {
        const base = await baseline(browser, app, variant);
        const baselineText = base.ms !== null ? fmtMs(base.ms) : `failed: ${base.error}`;
        if (variant === app.variants[0] || variant.proof) {
          // The proof must tell a session from none, or "session proven" would mean nothing.
          const anonymous = await prove(browser, variant.proof ?? app.proof, null);
          rows.push({
            app: app.name,
            case: `${variant.proof ? `${variant.label}: ` : ""}proof check (baseline session / no session)`,
            expected: "yes / no",
            got: `${base.proven ? "yes" : "no"} / ${anonymous ? "yes" : "no"}`,
            ok: base.proven && !anonymous,
            proven: "—",
            ms: null,
            baseline: baselineText,
          });
        }
        if (!stack) {
          rows.push({
            app: app.name,
            case: `${variant.label}: hand-written login`,
            expected: "signs in",
            got: base.error ?? "signs in",
            ok: !base.error,
            proven: "—",
            ms: base.ms,
            baseline: baselineText,
          });
          continue;
        }
        const service = stack;
        const signIn = async (
          name: string,
          cred: LoginVariant["cred"],
          expected: "200" | "422 invalid_credentials",
        ) => {
          let answer: Answer;
          try {
            answer = await freshTotpStep(variant, () => login(service, key, variant, cred));
          } catch (err) {
            rows.push({
              app: app.name,
              case: name,
              expected,
              got: `no answer: ${oneLine((err as Error).message, 80)}`,
              ok: false,
              proven: "—",
              ms: null,
              baseline: baselineText,
            });
            return;
          }
          const got = describe(answer);
          const proven =
            answer.status === 200 ? await provenText(browser, variant.proof ?? app.proof, answer.body) : "—";
          const ok =
            expected === "200"
              ? answer.status === 200 && proven === "yes"
              : answer.status === 422 && answer.body.error?.code === "invalid_credentials";
          rows.push({ app: app.name, case: name, expected, got, ok, proven, ms: answer.ms, baseline: baselineText });
          say(`  ${name}: ${got}${answer.status === 200 ? `, session proven ${proven}` : ""} (${fmtMs(answer.ms)})`);
        };
        await signIn(`${variant.label}: first login (detected)`, variant.cred, "200");
        await signIn(`${variant.label}: learned login`, variant.cred, "200");
        if (variant.wrongPassword)
          await signIn(
            `${variant.label}: wrong password`,
            { ...variant.cred, password: `${variant.cred.password}-wrong` },
            "422 invalid_credentials",
          );
      }
      if (app.signup && stack) {
        const answer = await post(stack, key, "/v1/signup", {
          signup_method: "email",
          domain: app.signup.url,
          allocateMailbox: true,
        }).catch((err: Error) => err);
        if (answer instanceof Error) {
          rows.push({
            app: app.name,
            case: `sign-up: ${app.signup.about}`,
            expected: "201",
            got: `no answer: ${oneLine(answer.message, 80)}`,
            ok: false,
            proven: "—",
            ms: null,
            baseline: "—",
          });
        } else {
          const proven = answer.status === 201 ? await provenText(browser, app.proof, answer.body) : "—";
          rows.push({
            app: app.name,
            case: `sign-up: ${app.signup.about}`,
            expected: "201",
            got: describe(answer),
            ok: answer.status === 201 && proven === "yes",
            proven,
            ms: answer.ms,
            baseline: "—",
          });
          say(
            `  sign-up: ${describe(answer)}${answer.status === 201 ? `, session proven ${proven}` : ""} (${fmtMs(answer.ms)})`,
          );
        }
      }
    }
  } finally {
    await browser.close().catch(() => undefined);
    await db?.close();
    await stack?.stop();
    await stopAll();
  }
  const runMs = performance.now() - runStarted;

  const table = markdownTable(rows);
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
