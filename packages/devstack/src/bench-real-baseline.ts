import type { Browser } from "puppeteer-core";
import type { LoginVariant, RealApp } from "./real-apps/real-app";
import { prove, type Answer } from "./bench-real-session";
import { oneLine } from "./bench-real-table";
import { median } from "./bench-table";

/** The real-application bench's baseline: the hand-written Puppeteer login a user's own script would run. */

/** The browser a user's own script would launch: Debian's Chromium, headless, these flags and no others. */
export const BASELINE_BROWSER = {
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

/**
 * A TOTP code is accepted once (django-otp, like most, refuses a code of a step it already accepted): before a
 * login with a code, wait for a step no earlier login could have used. The wait is not part of any time.
 */
let lastTotpStep = 0;
const step = () => Math.floor(Date.now() / 30_000);
export async function freshTotpStep<T>(variant: LoginVariant, fn: () => Promise<T>): Promise<T> {
  if (variant.method !== "totp") return fn();
  while (step() <= lastTotpStep) await new Promise((r) => setTimeout(r, 250));
  try {
    return await fn();
  } finally {
    lastTotpStep = step();
  }
}

/** The baseline: the application's hand-written login in a new context, timed; the median of a few runs (the first is a warm-up). */
export async function baseline(
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
