import type { BrowserContext, Page } from "@authsvc/browser";
import type { LoginFailureCode } from "@authsvc/contracts";
import { type Deadline, sleep } from "../deadline";

export type Outcome = { kind: "success" } | { kind: "failure"; code: LoginFailureCode; message: string };

interface PageSignals {
  passwordVisible: boolean;
  errorText: string | null;
  captcha: boolean;
  otpPrompt: boolean;
  storage: string;
}

/** Runs in the page: what a person would look at to tell whether the login worked. */
function readSignalsInPage(): PageSignals {
  const visible = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const passwordVisible = [...document.querySelectorAll('input[type="password"]')].some(visible);
  const errorCandidates = [
    ...document.querySelectorAll('[role="alert"], [aria-live="assertive"], [aria-live="polite"], .error, .alert, .invalid-feedback, [class*="error" i]'),
  ].filter((el) => visible(el) && (el.textContent ?? "").trim().length > 0);
  const errorText = errorCandidates.map((el) => (el.textContent ?? "").trim().replace(/\s+/g, " "))[0] ?? null;
  const captcha = [...document.querySelectorAll('iframe[src*="recaptcha"], iframe[src*="hcaptcha"], iframe[src*="turnstile"], .g-recaptcha, .h-captcha, .cf-turnstile')].some(visible);
  const otpPrompt = [...document.querySelectorAll<HTMLInputElement>('input[autocomplete="one-time-code"], input[name*="otp" i], input[name*="totp" i], input[id*="otp" i]')].some(visible);
  let storage = "";
  try {
    storage = Object.keys(localStorage).sort().map((k) => `${k}=${localStorage.getItem(k)}`).join("&");
  } catch {
    storage = "";
  }
  return { passwordVisible, errorText: errorText ? errorText.slice(0, 300) : null, captcha, otpPrompt, storage };
}

export interface StateFingerprint {
  cookies: string;
  storage: string;
  /** The message already on the page before submit ("Please sign in to continue") is not a verdict. */
  errorText: string | null;
}

async function cookieFingerprint(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.domain}|${c.name}=${c.value}`).sort().join("&");
}

/** Cookies, localStorage and any message on the page before submit, to tell what the submit changed. */
export async function readSessionState(context: BrowserContext, page: Page): Promise<StateFingerprint> {
  const cookies = await cookieFingerprint(context);
  const signals = await page.evaluate(readSignalsInPage).catch(() => null);
  return { cookies, storage: signals?.storage ?? "", errorText: signals?.errorText ?? null };
}

// Words of a refusal. On a page without the form they still mean the login failed (a "too many attempts"
// page after a redirect), while other alerts on a signed-in page ("trial ends soon") do not.
const REFUSAL = /invalid|incorrect|wrong|not recogni[sz]ed|doesn.t match|does not match|too many|locked|denied|failed|try again/i;
const CREDENTIALS_REFUSED = /invalid|incorrect|wrong|not recogni[sz]ed|doesn.t match|does not match/i;

/**
 * Watches the page after submit until it shows a verdict or the settle time runs out. Success needs the
 * password field gone, no refusal on the page and new session state, seen on two polls in a row (a page
 * passing through a redirect is not a verdict); the form back with a message is a refusal.
 */
export async function classifyOutcome(
  context: BrowserContext,
  page: Page,
  before: StateFingerprint,
  deadline: Deadline,
  settleMs = 10_000,
): Promise<Outcome> {
  const until = Date.now() + Math.min(settleMs, deadline.remaining());
  let last: PageSignals | null = null;
  let successSeen = false;
  for (;;) {
    await page.waitForNetworkIdle({ idleTime: 250, timeout: Math.max(1, until - Date.now()) }).catch(() => undefined);
    const signals = await page.evaluate(readSignalsInPage).catch(() => null); // null: navigating
    if (signals && signals.errorText === before.errorText) signals.errorText = null;
    if (signals) {
      last = signals;
      if (signals.captcha) return { kind: "failure", code: "captcha_blocked", message: "the site asked for a CAPTCHA" };
      if (!signals.passwordVisible && signals.otpPrompt) {
        return { kind: "failure", code: "mfa_required", message: "the site asked for a one-time code" };
      }
      if (signals.passwordVisible && signals.errorText) {
        return { kind: "failure", code: "invalid_credentials", message: signals.errorText };
      }
      if (!signals.passwordVisible && signals.errorText && REFUSAL.test(signals.errorText)) {
        const code = CREDENTIALS_REFUSED.test(signals.errorText) ? "invalid_credentials" : "login_unconfirmed";
        return { kind: "failure", code, message: signals.errorText };
      }
      let success = false;
      if (!signals.passwordVisible) {
        const cookies = await cookieFingerprint(context).catch(() => before.cookies);
        success = cookies !== before.cookies || signals.storage !== before.storage;
      }
      if (success && successSeen) return { kind: "success" };
      successSeen = success;
    } else {
      successSeen = false;
    }
    if (Date.now() >= until) break;
    // A success seen once is confirmed after the next network quiet, without the polling pause.
    if (!successSeen) await sleep(150);
  }
  if (deadline.remaining() === 0) return { kind: "failure", code: "timeout", message: "timed out waiting for the page after submit" };
  return {
    kind: "failure",
    code: "login_unconfirmed",
    message: last?.passwordVisible
      ? "the login form is still shown, without an error message"
      : "the login form is gone but the site set no new session state",
  };
}
