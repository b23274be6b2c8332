import type { BrowserContext, Page } from "@authsvc/browser";
import type { LoginFailureCode } from "@authsvc/contracts";
import { type Deadline, sleep } from "../deadline";
import { performStep } from "./perform-step";
import type { SelectorPath } from "./read-page";
import { mergeSignals, scanPage } from "./scan-page";

/** Where the signed-in page showed its sign-out control or account menu; learned flows keep it. */
export interface SignedInMarker {
  frame: string;
  path: SelectorPath;
}

export type Outcome =
  | { kind: "success"; marker: SignedInMarker | null }
  | { kind: "failure"; code: LoginFailureCode; message: string };

export interface SessionSnapshot {
  cookies: string;
  storage: string;
  /** Messages already on the page before submit ("Please sign in to continue") are not a verdict. */
  messages: string[];
}

async function cookieFingerprint(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.domain}|${c.name}=${c.value}`).sort().join("&");
}

/** Cookies, localStorage of every frame and the messages shown, to tell what a submit changed. */
export async function snapshotSession(context: BrowserContext, page: Page, identifier: string): Promise<SessionSnapshot> {
  const signals = mergeSignals(await scanPage(page, identifier));
  return { cookies: await cookieFingerprint(context), storage: signals.storage, messages: signals.messages };
}

// The site's words, in the languages we read (en, de, fr, es, pt, it, nl).
const LOCKED =
  /locked|suspended|disabled|deactivated|blocked|too many|gesperrt|zu viele|verrouill|bloqu|trop de tentatives|demasiados|muitas tentativas|bloccat|troppi tentativi|geblokkeerd|te veel/i;
const CAPTCHA = /captcha|not a robot|kein roboter|pas un robot|no soy un robot|n[aã]o sou um rob[oô]|non sono un robot|geen robot/i;
const CREDENTIALS_REFUSED =
  /invalid|incorrect|wrong|not recogni[sz]ed|doesn.t match|does not match|no account|not found|unknown user|ung[uü]ltig|falsch|nicht korrekt|nicht gefunden|invalide|erron|introuvable|inv[aá]lid|no v[aá]lid|no coincide|errad|errat|non valid|non corrett|onjuist|ongeldig|verkeerd|niet gevonden/i;
const REFUSAL = /failed|denied|try again|not allowed|fehlgeschlagen|[ée]chec|[ée]chou[ée]|fall[oó]|fallid|falhou|non riuscito|mislukt/i;

/** The code a message of the site stands for, or null when it is not a refusal. */
export function refusalCode(message: string): LoginFailureCode | null {
  if (LOCKED.test(message)) return "account_locked";
  if (CAPTCHA.test(message)) return "captcha_blocked";
  if (CREDENTIALS_REFUSED.test(message)) return "invalid_credentials";
  if (REFUSAL.test(message)) return "login_unconfirmed";
  return null;
}

export interface ClassifyOptions {
  identifier: string;
  /** From a learned flow: the element this site's signed-in page showed the last time. */
  learnedMarker?: SignedInMarker | null;
  /** HTTP status of the last document the main frame loaded. */
  documentStatus?: () => number;
  onStep?: (step: string) => void;
  settleMs?: number;
}

const MAX_INTERSTITIALS = 3;

/**
 * Watches the page after the password was submitted until it shows a verdict. Success needs the password
 * field gone, no refusal, no question left ("Stay signed in?") and new session state, seen on two polls
 * in a row, or on one poll when the signed-in marker this site showed before is there. A page that
 * still asks for the password is never a success.
 */
export async function classifyOutcome(
  context: BrowserContext,
  page: Page,
  before: SessionSnapshot,
  deadline: Deadline,
  options: ClassifyOptions,
): Promise<Outcome> {
  const until = () => Date.now() + Math.min(options.settleMs ?? 10_000, deadline.remaining());
  let stopAt = until();
  let successSeen = false;
  let interstitials = 0;
  let lastPasswordShown = true;
  const seen = new Set(before.messages);
  const marker = options.learnedMarker ?? null;
  for (;;) {
    await page.waitForNetworkIdle({ idleTime: 250, timeout: Math.max(1, stopAt - Date.now()) }).catch(() => undefined);
    const scans = await scanPage(page, options.identifier).catch(() => []);
    if (scans.length > 0) {
      const signals = mergeSignals(scans);
      lastPasswordShown = signals.passwordShown;
      const fresh = signals.messages.filter((m) => !seen.has(m));
      const refusals = fresh.map((m) => ({ m, code: refusalCode(m) })).filter((r) => r.code !== null);
      const locked = refusals.find((r) => r.code === "account_locked");
      if (locked) return { kind: "failure", code: "account_locked", message: locked.m };
      if (signals.captcha || refusals.some((r) => r.code === "captcha_blocked")) {
        return { kind: "failure", code: "captcha_blocked", message: "the site asked for a CAPTCHA" };
      }
      const stillAsking = signals.passwordShown || signals.identifierOnlyShown;
      if (!signals.passwordShown && signals.otpPrompt) {
        return { kind: "failure", code: "mfa_required", message: "the site asked for a one-time code" };
      }
      if (stillAsking && fresh.length > 0) {
        const refusal = refusals[0]?.m ?? fresh[0]!;
        return { kind: "failure", code: "invalid_credentials", message: refusal };
      }
      if (stillAsking && signals.validation) {
        // The browser kept the form from being sent: the site never saw the attempt.
        return { kind: "failure", code: "invalid_credentials", message: `the login form does not accept the username: ${signals.validation}` };
      }
      if (!stillAsking && refusals.length > 0) {
        return { kind: "failure", code: refusals[0]!.code!, message: refusals[0]!.m };
      }
      if (!stillAsking && signals.interstitial && interstitials < MAX_INTERSTITIALS) {
        interstitials++;
        options.onStep?.("answer interstitial question");
        const { key, reading } = signals.interstitial;
        await performStep(page, { action: "click", purpose: "next", frame: key, path: reading.interstitial! }, {
          identifier: options.identifier,
          password: "",
          additionalFields: {},
        }).catch(() => false);
        successSeen = false;
        stopAt = until();
        continue;
      }
      let success = false;
      if (!stillAsking && !signals.interstitial) {
        const cookies = await cookieFingerprint(context).catch(() => before.cookies);
        success = cookies !== before.cookies || signals.storage !== before.storage;
      }
      const found = signals.signedIn ? { frame: signals.signedIn.key, path: signals.signedIn.reading.signedIn! } : null;
      const markerShown = !!marker && !!found && found.frame === marker.frame && found.path.join("\u0000") === marker.path.join("\u0000");
      if (success && (successSeen || markerShown)) return { kind: "success", marker: found };
      successSeen = success;
    } else {
      successSeen = false; // navigating
    }
    if (Date.now() >= stopAt) break;
    // A success seen once is confirmed after the next network quiet, without the polling pause.
    if (!successSeen) await sleep(150);
  }
  if (deadline.remaining() === 0) return { kind: "failure", code: "timeout", message: "timed out waiting for the page after submit" };
  const status = options.documentStatus?.() ?? 0;
  if (status >= 500) return { kind: "failure", code: "target_unreachable", message: `the site answered the login with HTTP ${status}` };
  return {
    kind: "failure",
    code: "login_unconfirmed",
    message: lastPasswordShown
      ? "the login form is still shown, without an error message"
      : "the login form is gone but the site set no new session state",
  };
}
