import type { Page } from "@authsvc/browser";
import { type Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { performStep } from "../page/steps";
import { type CaptchaWidget, enterCaptchaTokenInPage, readCaptchaInPage } from "./read-captcha";
import { readFrames } from "../page/scan-page";

/** What a solving service needs to solve a widget, as puppeteer-extra-plugin-recaptcha's providers take it. */
export interface CaptchaChallenge {
  kind: "recaptcha" | "hcaptcha" | "turnstile";
  siteKey: string;
  pageUrl: string;
}

/**
 * An operator-configured CAPTCHA solving service (off unless one is given). It answers with the token the
 * widget would have produced, or null (or throws, saying why) when it could not solve the challenge; it
 * stops when `signal` aborts (the flow ran out of time).
 */
export interface CaptchaSolver {
  /** Names the provider in the steps log. */
  id: string;
  solve(challenge: CaptchaChallenge, signal?: AbortSignal): Promise<{ token: string } | null>;
}

// How long a managed widget (Turnstile) or a ticked checkbox may take to leave its token.
const CAPTCHA_WAIT_MS = 8000;

const NO_VALUES = { identifier: "", password: "", additionalFields: {} };

/**
 * Just before a form is sent: leaves invisible CAPTCHAs to run by themselves, waits for a managed one's
 * token, ticks a checkbox once, and stops with `captcha_blocked` — nothing sent — at an image or puzzle
 * challenge or a widget that never passes, unless the solver answers it.
 */
export async function passCaptcha(page: Page, deadline: Deadline, solver: CaptchaSolver | undefined, step: (name: string) => void): Promise<void> {
  const until = Date.now() + Math.min(CAPTCHA_WAIT_MS, deadline.remaining());
  let ticked = false;
  for (;;) {
    const scans = await readFrames(page, readCaptchaInPage);
    const widgets = scans.flatMap((s) => s.reading.widgets);
    const challenge = widgets.find((w) => w.mode === "challenge");
    if (!widgets.some((w) => w.mode !== "invisible")) return;
    if (!challenge && scans.some((s) => s.reading.token)) return;
    const box = scans.find((s) => s.reading.checkbox && !s.reading.checked);
    if (!challenge && box && !ticked) {
      ticked = true;
      step("tick the CAPTCHA checkbox");
      await performStep(page, { action: "click", purpose: "captcha", frame: box.key, path: box.reading.checkbox! }, NO_VALUES).catch(() => false);
      continue;
    }
    if (challenge || Date.now() >= until) {
      const target = widgets.find((w): w is CaptchaWidget & { siteKey: string; provider: CaptchaChallenge["kind"] } => !!w.siteKey && w.provider !== "image");
      const frame = target && scans.find((s) => s.reading.widgets.includes(target))?.frame;
      let why = "";
      if (solver && target && frame) {
        step(`ask the CAPTCHA solver (${solver.id})`);
        let timer: NodeJS.Timeout | undefined;
        const stop = new AbortController();
        const answer = await Promise.race([
          solver.solve({ kind: target.provider, siteKey: target.siteKey, pageUrl: frame.url() }, stop.signal).catch((err: unknown) => {
            why = `; the CAPTCHA solver (${solver.id}) failed: ${err instanceof Error ? err.message : String(err)}`;
            return null;
          }),
          new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), deadline.remaining()))),
        ]).finally(() => {
          clearTimeout(timer);
          stop.abort();
        });
        if (answer) {
          await frame.evaluate(enterCaptchaTokenInPage, target.provider, answer.token);
          return;
        }
        why ||= `; the CAPTCHA solver (${solver.id}) gave no token`;
      }
      throw new LoginFlowError("captcha_blocked", `${challenge ? "the login form shows a CAPTCHA challenge" : "the login form's CAPTCHA was not passed"}${why}`);
    }
    await sleep(150);
  }
}
