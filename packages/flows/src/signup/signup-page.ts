import { EXPIRED, type LoginFailureCode } from "@authsvc/contracts";
import { settle, type UnsettledMessage } from "../login/verdict/unsettled-message";
import { shownLongEnough } from "../page/watch-timing";

/** A page after the signup went out, once its messages were read (see readSignupMessage). */
export interface SignupPageRead<P> {
  /** The signup form shown (again), and the browser's complaint about a field of it. */
  form: { validation: string | null } | null;
  /** Messages not seen before that may refuse. */
  fresh: string[];
  otpPrompt: boolean;
  /** The frame with the one-time-code field, when one is shown. */
  codePrompt: P | null;
  confirmByEmail: boolean;
  passwordShown: boolean;
  /** The login form's password field shown now, and whether the signup form reader read any frame. */
  loginPassword: { frame: string; path: string } | null;
  signupFormsRead: boolean;
  /** HTTP status of the main frame's last document, and the frames' text (for a refused link's words). */
  status: number;
  text: string[];
  now: number;
}

export interface SignupPageSoFar {
  codeAnswered: boolean;
  linkOpened: boolean;
  /** The signup form's password field as sent: a login form is another field than this one. */
  sentPassword: { frame: string; path: string } | null;
  unsettled: UnsettledMessage | null;
  /** Since when every poll showed a login form (null: the last one did not). */
  loginShownAt: number | null;
}

const refused = (code: LoginFailureCode, message: string) => ({ kind: "refused" as const, code, message });

export type SignupPageNext<P> =
  | { kind: "refused"; code: LoginFailureCode; message: string }
  | { kind: "wait" }
  | { kind: "answer-code"; prompt: P }
  | { kind: "confirm-by-link" }
  /** The new account is to sign in on the site's login form. */
  | { kind: "sign-in" }
  /** A page past the form, with no code or link asked: the loop weighs its session. */
  | { kind: "weigh" };

/**
 * What a page after the signup comes to, once nothing in its messages decided: the form shown again (a
 * message that settles, or the browser's complaint), a confirmation code or link asked for, a refused link,
 * the site's login form, or a page past them all. With the state after this poll.
 */
export function readSignupPage<P>(
  page: SignupPageRead<P>,
  so: SignupPageSoFar,
): { next: SignupPageNext<P>; unsettled: UnsettledMessage | null; loginShownAt: number | null } {
  const { unsettled, loginShownAt } = so;
  const wait = { kind: "wait" as const };
  if (page.form && !so.codeAnswered && !so.linkOpened) {
    if (page.fresh.length > 0) {
      // A message without known words counts once the page has settled on it.
      const waited = settle(unsettled, page.fresh[0]!, page.now);
      const next = waited.settled ? refused("signup_rejected", page.fresh[0]!) : wait;
      return { next, unsettled: waited.unsettled, loginShownAt };
    }
    if (page.form.validation)
      return {
        next: refused("signup_rejected", `the signup form was not sent: ${page.form.validation}`),
        unsettled,
        loginShownAt,
      };
    return { next: wait, unsettled, loginShownAt };
  }
  if (page.otpPrompt && !page.passwordShown) {
    if (so.codeAnswered && page.fresh.length > 0)
      return {
        next: refused("verification_failed", `the site refused the confirmation code: ${page.fresh[0]}`),
        unsettled,
        loginShownAt,
      };
    const next = !so.codeAnswered && page.codePrompt ? { kind: "answer-code" as const, prompt: page.codePrompt } : wait;
    return { next, unsettled, loginShownAt };
  }
  if (page.confirmByEmail && !so.linkOpened && !page.passwordShown)
    return { next: { kind: "confirm-by-link" }, unsettled, loginShownAt };
  if (so.linkOpened && page.status >= 400) {
    const said = page.text
      .flatMap((t) => t.split(/\n+/))
      .map((t) => t.trim())
      .find((t) => EXPIRED.test(t) || /invalid/i.test(t));
    const message = `the site refused the confirmation link: ${said ?? `HTTP ${page.status}`}`;
    return { next: refused("verification_failed", message), unsettled, loginShownAt };
  }
  if (page.passwordShown) {
    // The new account is to sign in on the login form the site shows now: another field than the one the
    // signup went out with, still shown a watch's pause later (a signup form re-rendering is not a login form).
    const login = page.loginPassword;
    const same =
      !!login && !!so.sentPassword && login.frame === so.sentPassword.frame && login.path === so.sentPassword.path;
    const shownAt = !same && page.signupFormsRead ? (loginShownAt ?? page.now) : null;
    const next = shownLongEnough(shownAt, page.now, 2) ? { kind: "sign-in" as const } : wait;
    return { next, unsettled, loginShownAt: shownAt };
  }
  return { next: { kind: "weigh" }, unsettled, loginShownAt };
}
