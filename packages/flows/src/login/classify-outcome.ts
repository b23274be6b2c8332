import type { BrowserContext, Page } from "@authsvc/browser";
import type { LoginFailureCode } from "@authsvc/contracts";
import { type Deadline, sleep } from "../deadline";
import { performStep } from "../page/steps";
import { newSayings, readNotes, refusalSaid, sentencesShown } from "../page/page-sayings";
import type { SelectorPath } from "../page/read-page";
import { EXPIRED, refusalCode, siteFault } from "../page/refusal-words";
import { type FrameScan, mergeSignals, scanPage } from "../page/scan-page";
import { type SessionSnapshot, sessionChanged } from "../page/session-snapshot";

/** Where the signed-in page showed its sign-out control or account menu; learned flows keep it. */
export interface SignedInMarker {
  frame: string;
  path: SelectorPath;
}

export type Outcome =
  | { kind: "success"; marker: SignedInMarker | null }
  | { kind: "failure"; code: LoginFailureCode; message: string };

export interface ClassifyOptions {
  identifier: string;
  /** The control that sent the password: never clicked again, even when it reads like "Continue". */
  submitted: SignedInMarker | null;
  /** From a learned flow: the element this site's signed-in page showed the last time. */
  learnedMarker?: SignedInMarker | null;
  /** HTTP status of the last document the main frame loaded since the submit (0: none yet). */
  documentStatus?: () => number;
  /** Messages of JavaScript dialogs (alert, confirm) the page opened since the submit. */
  dialogs?: () => string[];
  /** Answers a one-time-code prompt (TOTP, or a code from our inbox), when the request brought a way to; else it is mfa_required. */
  answerOtp?: (prompt: FrameScan) => Promise<void>;
  /** Answers "check your email": waits for the sign-in link in our mailbox and opens it in this page. */
  answerLink?: () => Promise<void>;
  onStep?: (step: string) => void;
  settleMs?: number;
}

const MAX_INTERSTITIALS = 3;
// Pages that keep a connection busy (polling, beacons) never go quiet; a poll does not wait longer.
const QUIET_WAIT_MS = 1000;
const samePath = (a: SignedInMarker | null, b: SignedInMarker | null) =>
  !!a && !!b && a.frame === b.frame && a.path.join("\u0000") === b.path.join("\u0000");

/**
 * Watches the page after the password was submitted until it shows a verdict. Success needs the password
 * field gone, no refusal, no question left ("Stay signed in?"), every frame readable, no HTTP error and
 * new session state, seen on two polls in a row, or on one poll when the signed-in marker this site
 * showed before is there. A page that still asks for the password is never a success.
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
  let unsettled: string | null = null;
  let otpAnswered = false;
  let linkOpened = false;
  const seenMessages = new Set(before.messages);
  const seenSentences = new Set(before.sentences);
  const status = () => options.documentStatus?.() ?? 0;
  for (;;) {
    const quiet = Math.max(1, Math.min(QUIET_WAIT_MS, stopAt - Date.now()));
    await page.waitForNetworkIdle({ idleTime: 250, timeout: quiet }).catch(() => undefined);
    const [scans, notes] = await Promise.all([
      scanPage(page, options.identifier).catch(() => Object.assign([], { unreadable: 1 })),
      readNotes(page),
    ]);
    if (scans.length > 0) {
      const signals = mergeSignals(scans);
      lastPasswordShown = signals.passwordShown;
      const stillAsking = signals.passwordShown || signals.identifierOnlyShown;
      const fresh = [...signals.messages.filter((m) => !seenMessages.has(m)), ...(options.dialogs?.() ?? [])];
      // Once a code was typed or a link opened, a refusal is of that code or link, not of the password.
      const afterFactor = otpAnswered || linkOpened;
      const refusalOf = (m: string): LoginFailureCode | null => {
        const code = refusalCode(m);
        if (!afterFactor) return code;
        if (code === "invalid_credentials" || (code !== "account_locked" && EXPIRED.test(m))) return "verification_failed";
        return code;
      };
      const sayings = newSayings(notes, seenSentences);
      // Beside a form that is still shown, new plain text that refuses counts like a message.
      const refusals = [
        ...fresh.map((m) => ({ m, code: refusalOf(m) })),
        ...(stillAsking ? sayings.map((s) => ({ m: s.block, code: refusalOf(s.news) })) : []),
      ].filter((r) => r.code !== null);
      const locked = refusals.find((r) => r.code === "account_locked");
      if (locked) return { kind: "failure", code: "account_locked", message: locked.m };
      // A form shown again with its CAPTCHA and the site's "wrong password" is a refusal of the password.
      if (refusals.some((r) => r.code === "captcha_blocked") || (signals.captcha && !refusals.some((r) => r.code === "invalid_credentials"))) {
        return { kind: "failure", code: "captcha_blocked", message: "the site asked for a CAPTCHA" };
      }
      if (!signals.passwordShown && signals.otpPrompt) {
        const prompt = scans.find((s) => s.reading.otp.length > 0);
        if (otpAnswered && fresh.length > 0) {
          return { kind: "failure", code: "verification_failed", message: `the site refused the one-time code: ${fresh[0]}` };
        }
        // The prompt again, with new plain text that refuses the code ("That code didn't work." in a div).
        const said = otpAnswered ? refusalSaid(sayings, "verification_failed") : null;
        if (said) {
          const message = said.code === "verification_failed" ? `the site refused the one-time code: ${said.message}` : said.message;
          return { kind: "failure", code: said.code, message };
        }
        if (!otpAnswered && prompt && options.answerOtp) {
          otpAnswered = true;
          for (const m of signals.messages) seenMessages.add(m);
          for (const t of sentencesShown(notes)) seenSentences.add(t);
          await options.answerOtp(prompt);
          successSeen = false;
          stopAt = until();
          continue;
        }
        if (!otpAnswered) return { kind: "failure", code: "mfa_required", message: "the site asked for a one-time code" };
      }
      if (!stillAsking && signals.confirmByEmail && !signals.otpPrompt) {
        if (!linkOpened && options.answerLink) {
          linkOpened = true;
          for (const m of signals.messages) seenMessages.add(m);
          for (const t of sentencesShown(notes)) seenSentences.add(t);
          await options.answerLink();
          successSeen = false;
          stopAt = until();
          continue;
        }
        if (!linkOpened) return { kind: "failure", code: "mfa_required", message: "the site asked to confirm the sign-in by email" };
      }
      const refusedCode = afterFactor ? "verification_failed" : "invalid_credentials";
      if (stillAsking && refusals.length > 0) {
        // "Something went wrong" is the site's fault, not a refusal of the credentials.
        const refusal = refusals.find((r) => !siteFault(r.m)) ?? refusals[0]!;
        const code = refusal.code === "account_locked" ? "account_locked" : siteFault(refusal.m) ? "login_unconfirmed" : refusedCode;
        return { kind: "failure", code, message: refusal.m };
      }
      if (stillAsking && fresh.length > 0) {
        // A message without refusal words ("Checking…") counts once the page has settled on it.
        if (unsettled === fresh[0]) return { kind: "failure", code: refusedCode, message: fresh[0]! };
        unsettled = fresh[0]!;
        continue;
      }
      if (stillAsking && signals.validation) {
        // The browser kept the form from being sent: the site never saw the attempt.
        return { kind: "failure", code: "invalid_credentials", message: `the login form does not accept the username: ${signals.validation}` };
      }
      if (!stillAsking && refusals.length > 0) {
        return { kind: "failure", code: refusals[0]!.code!, message: refusals[0]!.m };
      }
      const interstitial = signals.interstitial;
      const answer = interstitial ? { frame: interstitial.key, path: interstitial.reading.interstitial! } : null;
      if (!stillAsking && answer && !samePath(answer, options.submitted) && interstitials < MAX_INTERSTITIALS) {
        interstitials++;
        options.onStep?.("answer interstitial question");
        await performStep(page, { action: "click", purpose: "next", ...answer }, { identifier: options.identifier, password: "", additionalFields: {} }).catch(() => false);
        successSeen = false;
        stopAt = until();
        continue;
      }
      const found = signals.signedIn ? { frame: signals.signedIn.key, path: signals.signedIn.reading.signedIn! } : null;
      if (!stillAsking && !found) {
        // A formless page that says, in plain text, that the login failed (no alert markup).
        const said = sayings
          .map((s) => ({ m: s.block, code: refusalOf(s.news) }))
          .find((r) => r.code === "account_locked" || r.code === "invalid_credentials" || r.code === "verification_failed");
        if (said) return { kind: "failure", code: said.code!, message: said.m };
      }
      if (!stillAsking && status() >= 500) {
        return { kind: "failure", code: "target_unreachable", message: `the site answered the login with HTTP ${status()}` };
      }
      let success = false;
      if (!stillAsking && !signals.otpPrompt && !signals.confirmByEmail && !answer && scans.unreadable === 0 && (status() === 0 || status() < 400)) {
        success = await sessionChanged(context, page, before, signals.storage);
      }
      if (success && (successSeen || samePath(found, options.learnedMarker ?? null))) return { kind: "success", marker: found };
      successSeen = success;
    } else {
      successSeen = false; // navigating
    }
    if (Date.now() >= stopAt) break;
    // A success seen once is confirmed after the next network quiet, without the polling pause.
    if (!successSeen) await sleep(150);
  }
  if (deadline.remaining() === 0) return { kind: "failure", code: "timeout", message: "timed out waiting for the page after submit" };
  if (status() >= 400) return { kind: "failure", code: "login_unconfirmed", message: `the site answered the login with HTTP ${status()}` };
  return {
    kind: "failure",
    code: "login_unconfirmed",
    message: lastPasswordShown
      ? "the login form is still shown, without an error message"
      : "the login form is gone but the site set no new session state",
  };
}
