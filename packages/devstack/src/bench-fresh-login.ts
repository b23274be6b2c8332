import puppeteer, { type Frame, type Page } from "puppeteer-core";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM } from "@authsvc/browser";
import { BENCH_BROWSER } from "./bench-login-engine";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import type { Stack } from "./stack";

type User = { username: string; password: string };

const SETTLE_MS = 1000;

/**
 * A fixture page, and what its customer would write without us: plain Puppeteer that knows the page,
 * types, submits and waits for the signed-in page's own marker (its sign-out control), the same thing
 * our verdict must see before it answers.
 */
interface Scripted {
  name: string;
  path: string;
  script: (page: Page, user: User) => Promise<void>;
}

const typeAndSubmit = async (where: Page | Frame, scope: string, user: User) => {
  await where.type(`${scope}input[name="username"]`, user.username);
  await where.type(`${scope}input[name="password"]`, user.password);
  await where.click(`${scope}button[type="submit"]`);
};

const SCRIPTED: Scripted[] = [
  {
    name: "classic",
    path: "/classic/login",
    script: async (page, user) => {
      await typeAndSubmit(page, "", user);
      await page.waitForSelector('a[href="/classic/logout"]');
    },
  },
  {
    name: "modal-login",
    path: "/cases/modal-login/login",
    script: async (page, user) => {
      await page.click("#open");
      await typeAndSubmit(page, "dialog ", user);
      await page.waitForSelector('a[href$="/logout"]');
    },
  },
  {
    name: "iframe-cross-origin",
    path: "/cases/iframe-cross-origin/login",
    script: async (page, user) => {
      const frame = (await (await page.waitForSelector("#widget"))!.contentFrame())!;
      await frame.waitForSelector("#email");
      await frame.type("#email", user.username);
      await frame.type("#pw", user.password);
      await frame.click('button[type="submit"]');
      await page.waitForSelector('a[href$="/logout"]');
    },
  },
  {
    name: "spa",
    path: "/spa/login",
    script: async (page, user) => {
      await page.waitForSelector("#u");
      await page.type("#u", user.username);
      await page.type("#p", user.password);
      await page.click('button[type="submit"]');
      await page.waitForSelector("#logout");
    },
  },
];

/** The phases of a login through the service, from its request to its answer, read off its job's events. */
export const PHASES = [
  "request → queued",
  "queued → started",
  "started → navigating",
  "navigating → form found",
  "form found → submitted",
  "submitted → succeeded",
  "succeeded → answer",
] as const;

export interface FreshLoginRow {
  page: string;
  /** Of each learned login, the milliseconds of each phase (PHASES, in order). */
  learnedPhases: number[][];
  /** Through the service, HTTP request to session, the page's login flow already learned. */
  learned: number[];
  /** Through the service, the first login of an organization on the page (detection). */
  detected: number[];
  /** The hand-written script, in the same run, interleaved with the service's logins: a new browser context and page, then the login. */
  handWritten: number[];
  /** The same runs from the moment its page was ready (a script that made its context ahead, as the worker keeps one ready). */
  handWrittenPageReady: number[];
}

/**
 * Fresh logins (never from the cache) through the whole service, side by side with a hand-written
 * Puppeteer script on the same page, interleaved so both see the same machine. The learned-flow series
 * logs in with one organization whose flow is learned; each detection sample is a new organization.
 */
export async function benchFreshLogin(stack: Stack, rounds: number): Promise<FreshLoginRow[]> {
  const db = Database.fromConfig(loadConfig(stack.env), 1);
  const newKey = async (name: string) =>
    (await db.apiKeys.create((await db.organizations.create(name)).id, "bench")).key;
  // The script runs the whole browser, Puppeteer's default, as a customer's does, whichever the stack runs.
  const executablePath = BENCH_BROWSER.mode === "full" ? BENCH_BROWSER.executablePath : DEFAULT_CHROMIUM.full;
  const browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
  const rows: FreshLoginRow[] = [];
  try {
    const learnedKey = await newKey("Bench fresh logins");
    let seq = 0;
    for (const scripted of SCRIPTED) {
      const url = `${stack.sites.url}${scripted.path}`;
      const user = { username: `fresh-${scripted.name}-${++seq}@example.test`, password: `fresh-pw-${seq}` };
      stack.sites.accounts.addUser(user.username, user.password);
      const login = async (key: string, phases?: number[][]) => {
        const sent = Date.now();
        const start = performance.now();
        const res = await fetch(`${stack.gatewayUrl}/v1/login`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({
            domain: url,
            login_method: "password",
            cred: { username: user.username, password: user.password },
            useCache: false,
          }),
        });
        const body = (await res.json()) as { cookies?: unknown[]; error?: { code: string } };
        const ms = performance.now() - start;
        const answered = Date.now();
        if (res.status !== 200)
          throw new Error(`fresh login on ${scripted.name} answered ${res.status} ${body.error?.code ?? ""}`);
        if (phases) phases.push(await phasesOf(stack, key, res.headers.get("x-job-id")!, sent, answered));
        return ms;
      };
      const handWritten = async () => {
        const start = performance.now();
        const context = await browser.createBrowserContext();
        try {
          const page = await context.newPage();
          const ready = performance.now();
          await page.goto(url, { waitUntil: "domcontentloaded" });
          await scripted.script(page, user);
          const end = performance.now();
          return { total: end - start, pageReady: end - ready };
        } finally {
          await context.close();
        }
      };
      // Warm-up, not counted: the flow is learned for the learned series' organization.
      await login(learnedKey);
      await handWritten();
      const row: FreshLoginRow = {
        page: scripted.name,
        learnedPhases: [],
        learned: [],
        detected: [],
        handWritten: [],
        handWrittenPageReady: [],
      };
      // Each login starts on a settled machine: after a login the worker makes its next spare context (a
      // renderer and the stealth set-up), which would otherwise land on whichever login comes next.
      const settled = <T>(fn: () => Promise<T>) => new Promise((r) => setTimeout(r, SETTLE_MS)).then(fn);
      for (let i = 0; i < rounds; i++) {
        const detectKey = await newKey(`Bench detect ${scripted.name} ${i}`);
        const hand = await settled(handWritten);
        row.handWritten.push(hand.total);
        row.handWrittenPageReady.push(hand.pageReady);
        row.learned.push(await settled(() => login(learnedKey, row.learnedPhases)));
        row.detected.push(await settled(() => login(detectKey)));
      }
      rows.push(row);
    }
  } finally {
    await browser.close();
    await db.close();
  }
  return rows;
}

/**
 * A finished job's phases in milliseconds (PHASES), from its event stream (each event's time, written by the
 * process that moved the job on: the gateway, the worker) and the request's own send and answer times. The
 * clocks are the same machine's.
 */
async function phasesOf(stack: Stack, key: string, jobId: string, sent: number, answered: number): Promise<number[]> {
  const res = await fetch(`${stack.gatewayUrl}/v1/jobs/${jobId}/events`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const at = new Map<string, number>();
  for (const m of (await res.text()).matchAll(/^data: (.+)$/gm)) {
    const event = JSON.parse(m[1]!) as { type: string; at: string };
    if (!at.has(event.type)) at.set(event.type, Date.parse(event.at));
  }
  const marks = [
    sent,
    at.get("queued"),
    at.get("started"),
    at.get("navigating"),
    at.get("form_found"),
    at.get("submitted"),
    at.get("succeeded"),
    answered,
  ];
  return marks.slice(1).map((t, i) => (t ?? NaN) - (marks[i] ?? NaN));
}
