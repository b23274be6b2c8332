import {
  BrowserHost,
  type BrowserMode,
  chromiumPath,
  type Page,
  processTreeCpuSeconds,
  TargetGuard,
} from "@authsvc/browser";
import { type LearnedFlow, LoginFlowError, passwordLogin, SESSION_CHECK_STEP } from "@authsvc/flows";
import { LOGIN_CASES, type LoginCase, startTestSites, type TestSites } from "@authsvc/test-sites";
import { freshTotpCode, newTotpSecret, parseTotpSecret } from "@authsvc/crypto";
import { median } from "./bench-table";

const ms = (x: number) => (Number.isNaN(x) ? "     -" : `${x.toFixed(0).padStart(6)}`);

interface Run {
  ms: number;
  verdict: string;
  /** The login checked weak evidence of a session in a second tab (session-evidence). */
  checked: boolean;
  flow?: LearnedFlow;
  source?: string;
}

type User = { username: string; password: string; totpSecret?: string };

// What a customer would write without us for three of the pages: plain Puppeteer that knows the page.
const HAND_WRITTEN: Record<string, (page: Page, user: User) => Promise<void>> = {
  classic: async (page, user) => {
    await page.type('input[name="username"]', user.username);
    await page.type('input[name="password"]', user.password);
    await Promise.all([page.waitForNavigation({ waitUntil: "domcontentloaded" }), page.click('button[type="submit"]')]);
  },
  "modal-login": async (page, user) => {
    await page.click("#open");
    await page.type('dialog input[name="username"]', user.username);
    await page.type('dialog input[name="password"]', user.password);
    await Promise.all([
      page.waitForNavigation({ waitUntil: "domcontentloaded" }),
      page.click('dialog button[type="submit"]'),
    ]);
  },
  "iframe-cross-origin": async (page, user) => {
    const frameEl = await page.waitForSelector("#widget");
    const frame = (await frameEl!.contentFrame())!;
    await frame.waitForSelector("#email");
    await frame.type("#email", user.username);
    await frame.type("#pw", user.password);
    await Promise.all([
      page.waitForNavigation({ waitUntil: "domcontentloaded" }),
      frame.click('button[type="submit"]'),
    ]);
  },
};

/**
 * The Chromium the bench's stack and engine run (`BROWSER_MODE=shell pnpm bench`: the headless shell); the
 * hand-written script's baseline is always the whole browser, Puppeteer's default, as a customer runs it.
 */
export const BENCH_BROWSER = (() => {
  const mode: BrowserMode = process.env.BROWSER_MODE === "shell" ? "shell" : "full";
  return { mode, executablePath: chromiumPath(mode) };
})();

/**
 * The login engine over every fixture case, outside the service: the verdict rate, the median time per
 * login by detection and by replaying the learned flow, and a hand-written script on three pages. All
 * runs use the same BrowserHost (fresh context with stealth per login, egress proxy), so the
 * differences are the engine's own.
 */
export async function benchLoginEngine(rounds: number, write: (line: string) => void): Promise<void> {
  const sites: TestSites = await startTestSites();
  const guard = new TargetGuard(["loopback"]);
  const host = new BrowserHost({ ...BENCH_BROWSER, guard });
  let seq = 0;
  const userFor = (c: LoginCase): User => {
    const secret = c.totp ? newTotpSecret() : undefined;
    const user = {
      username: `bench-${++seq}@example.test`,
      password: `bench-pw-${seq}`,
      totpSecret: c.withoutSecret ? undefined : secret,
    };
    sites.accounts.addUser(user.username, user.password, { locked: c.lockedUser, totpSecret: secret });
    return user;
  };
  const login = async (c: LoginCase, user: User, learned: LearnedFlow | null): Promise<Run> => {
    const start = performance.now();
    let checked = false;
    const onStep = (step: string) => {
      if (step === SESSION_CHECK_STEP) checked = true;
    };
    try {
      const result = await host.withPage((page) =>
        passwordLogin(
          page,
          {
            loginUrl: c.url(sites.url),
            identifier: user.username,
            password: user.password,
            additionalFields: c.additionalFields,
            totp: user.totpSecret ? () => freshTotpCode(parseTotpSecret(user.totpSecret!)) : undefined,
          },
          { guard, timeoutMs: 30_000, learned, onStep },
        ),
      );
      return {
        ms: performance.now() - start,
        verdict: "success",
        checked,
        flow: result.flow ?? undefined,
        source: result.source,
      };
    } catch (err) {
      return { ms: performance.now() - start, verdict: err instanceof LoginFlowError ? err.code : "crash", checked };
    }
  };

  try {
    await host.warmUp();
    // CPU per login: Chromium's processes (browser, renderers, GPU, network) and this process (the engine,
    // the egress proxy and the fixture sites). The host keeps one Chromium for the whole run.
    const chromiumPid = await host.withPage(async (page) => page.browser().process()?.pid);
    const chromiumCpuBefore = processTreeCpuSeconds(chromiumPid);
    const ownCpuBefore = process.cpuUsage();
    write(`\nlogin engine over ${LOGIN_CASES.length} fixture cases, ${rounds} logins each way (ms, median per case)`);
    write(`${"case".padEnd(22)} ${"expect".padEnd(16)} detect learned  verdicts`);
    const detectAll: number[] = [];
    const learnedAll: number[] = [];
    const perCase = new Map<string, { detect: number; learned: number }>();
    let right = 0;
    let total = 0;
    let replayed = 0;
    let relearned = 0;
    const all: Run[] = [];
    for (const c of LOGIN_CASES) {
      const user = userFor(c);
      const detect: Run[] = [];
      for (let i = 0; i < rounds; i++) detect.push(await login(c, user, null));
      const flow = detect.find((r) => r.flow)?.flow ?? null;
      const replay: Run[] = [];
      if (flow) for (let i = 0; i < rounds; i++) replay.push(await login(c, user, flow));
      const runs = [...detect, ...replay];
      all.push(...runs);
      const ok = runs.filter((r) => r.verdict === c.expect);
      replayed += replay.length;
      relearned += replay.filter((r) => r.source === "relearned").length;
      right += ok.length;
      total += runs.length;
      const d = median(detect.filter((r) => r.verdict === "success").map((r) => r.ms));
      const l = median(replay.filter((r) => r.verdict === "success" && r.source === "learned").map((r) => r.ms));
      if (!Number.isNaN(d) && !Number.isNaN(l)) {
        detectAll.push(d);
        learnedAll.push(l);
      }
      perCase.set(c.name, { detect: d, learned: l });
      const wrong = runs.filter((r) => !ok.includes(r)).map((r) => r.verdict);
      write(
        `${c.name.padEnd(22)} ${c.expect.padEnd(16)} ${ms(d)} ${ms(l)}  ${ok.length}/${runs.length}${wrong.length ? ` (got ${[...new Set(wrong)].join(", ")})` : ""}${runs.some((r) => r.checked) ? ` [second-tab check ${runs.filter((r) => r.checked).length}/${runs.length}]` : ""}`,
      );
    }
    const chromiumCpu = processTreeCpuSeconds(chromiumPid) - chromiumCpuBefore;
    const ownCpu = process.cpuUsage(ownCpuBefore);
    write(`verdicts as expected: ${right}/${total} logins (${((100 * right) / total).toFixed(1)}%)`);
    write(
      `CPU per login: Chromium ${(chromiumCpu / total).toFixed(2)} s, the engine's own process ${((ownCpu.user + ownCpu.system) / 1e6 / total).toFixed(2)} s`,
    );
    write(`learned flows that no longer fit and fell back to detection: ${relearned}/${replayed} replays`);
    const checkedRuns = all.filter((r) => r.checked);
    const signedIn = (runs: Run[]) => runs.filter((r) => r.verdict === "success").map((r) => r.ms);
    write(
      `weak session evidence checked in a second tab: ${checkedRuns.length}/${total} logins (${signedIn(checkedRuns).length} signed in, ${checkedRuns.length - signedIn(checkedRuns).length} refused); median successful login with the check ${ms(median(signedIn(checkedRuns)))} ms, without ${ms(median(signedIn(all.filter((r) => !r.checked))))} ms`,
    );
    write(
      `median login, over the ${detectAll.length} cases that sign in: detection ${median(detectAll).toFixed(0)} ms, learned flow ${median(learnedAll).toFixed(0)} ms (${(100 * (1 - median(learnedAll) / median(detectAll))).toFixed(0)}% faster)`,
    );

    write("\nhand-written Puppeteer script vs the engine, same browser host (ms, median)");
    for (const [name, script] of Object.entries(HAND_WRITTEN)) {
      const c = LOGIN_CASES.find((x) => x.name === name)!;
      const user = userFor(c);
      const times: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const start = performance.now();
        await host.withPage(async (page) => {
          await page.goto(c.url(sites.url), { waitUntil: "domcontentloaded" });
          await script(page, user);
          const cookies = await page.browserContext().cookies();
          if (!cookies.some((k) => k.name === c.session!.cookie))
            throw new Error(`hand-written login on ${name} failed`);
        });
        times.push(performance.now() - start);
      }
      const engine = perCase.get(name)!;
      write(
        `${name.padEnd(22)} hand-written ${ms(median(times))}   engine detect ${ms(engine.detect)}   engine learned ${ms(engine.learned)}`,
      );
    }
  } finally {
    await host.close();
    await sites.close();
  }
}
