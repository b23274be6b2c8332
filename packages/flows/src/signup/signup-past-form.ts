import type { LoginFailureCode } from "@authsvc/contracts";
import type { Evidence } from "../page/session-evidence";
import { shownLongEnough } from "../page/watch-timing";
import { ACCOUNT_MAILED } from "./signup-verdicts";

// A formless, quiet page that still offers "Log in" as long as this many looks take is not going to sign the
// user in (timed, not counted: a look woken by the page drawing something may come at once).
export const LOGIN_OFFER_LOOKS = 3;

/**
 * `login` with `leaveForm`: the site said the account was made and is to sign in, on a page that still shows
 * its signup form: the login goes to the site's login page, never through that form.
 */
export type SignupVerdict = { kind: "signed-in" } | { kind: "login"; verified: boolean; leaveForm?: boolean };

const refused = (code: LoginFailureCode, message: string) => ({ kind: "refused" as const, code, message });

/** A page after the signup went out, as far as a passwordless account's password and mail go. */
export interface AccountPageRead {
  /** The signup form shown, and whether it is a page to choose the account's password on (isSetPasswordForm). */
  form: boolean;
  setPasswordForm: boolean;
  /** How many messages not seen before may refuse, and how many frames could not be read. */
  fresh: number;
  unreadable: number;
  status: number;
  confirmByEmail: boolean;
  /** The visible text of every frame. */
  text: string;
}

export interface AccountSoFar {
  /** The form went out without a password field: the site mails a password or a link to set one. */
  passwordless: boolean;
  accountMailRead: boolean;
  linkOpened: boolean;
  /** How many passwords were set on the page the mail's link opened. */
  passwordSets: number;
}

/**
 * A passwordless account's password, once no message decided: whether the site took the password last set
 * (its set-password form gone, nothing refused it), and the page action that comes next: set the password on
 * the page the mail's link opened, or wait for the site's mail that brings it (or a link to set it).
 */
export function readAccountPage(
  page: AccountPageRead,
  so: AccountSoFar,
): { acceptPassword: boolean; next: { kind: "set-password" } | { kind: "await-account-mail" } | null } {
  // The set-password form is gone and nothing refused it: the site took the password.
  const acceptPassword =
    so.passwordSets > 0 && !page.setPasswordForm && page.fresh === 0 && page.unreadable === 0 && page.status < 400;
  if (so.accountMailRead && so.linkOpened && so.passwordSets === 0 && page.setPasswordForm)
    return { acceptPassword, next: { kind: "set-password" } };
  // Created without a password: the site mails one, or a link to set it (its login form may be shown beside).
  if (so.passwordless && !so.accountMailRead && !page.form && (page.confirmByEmail || ACCOUNT_MAILED.test(page.text)))
    return { acceptPassword, next: { kind: "await-account-mail" } };
  return { acceptPassword, next: null };
}

/** A page past the form, with no code or link asked for: what it shows of a session or a login to come. */
export interface PastFormRead {
  otpPrompt: boolean;
  /** An interstitial question ("Stay signed in?") is shown. */
  interstitial: boolean;
  /** The account shown signed in (its sign-out control or account menu). */
  signedIn: boolean;
  /** The poll before this one looked signed in too. */
  successBefore: boolean;
  /** The page shows only the identifier typed, no account of its own. */
  identifierOnlyShown: boolean;
  /** A frame offers "Log in" (an opener). */
  offersLogin: boolean;
  now: number;
}

/** What the loop found out when a rule asked (see PastFormNext): the rules are asked again with it. */
export interface PastFormFacts {
  /** The interstitial could not be answered (answered too often). */
  interstitialUnanswered?: boolean;
  /** How far the page proves a new session (see session-evidence). */
  evidence?: Evidence;
}

export type PastFormNext =
  /** Questions for the loop: it answers the interstitial (asked again when it could not), or weighs the session. */
  | { kind: "answer-interstitial" }
  | { kind: "weigh-session" }
  | { kind: "signed-in" }
  /** The new account is to sign in: the site offers "Log in" on a page that set nothing. */
  | { kind: "sign-in" }
  /** Nothing decided: the poll looked signed in or not. */
  | { kind: "looks"; success: boolean };

/**
 * A page past the form, with no code or link asked: its interstitial answered, a new session shown on two
 * looks in a row, or its "Log in" offer shown long enough. With since when the offer was shown after this poll.
 */
export function weighPastForm(
  page: PastFormRead,
  so: { loginOfferedAt: number | null },
  facts: PastFormFacts = {},
): { next: PastFormNext; loginOfferedAt: number | null } {
  const { loginOfferedAt } = so;
  if (!page.otpPrompt && page.interstitial && !facts.interstitialUnanswered)
    return { next: { kind: "answer-interstitial" }, loginOfferedAt };
  // New cookies alone do not tell: sites re-issue them on every page ("Registration complete.
  // Redirecting…"). The page must also show the account signed in (its sign-out control or account
  // menu); else the new account logs in, and the login's verdict decides.
  // Strong evidence: the account shown, with state beyond what rotates on its own (session-evidence).
  if (page.signedIn && facts.evidence === undefined) return { next: { kind: "weigh-session" }, loginOfferedAt };
  const success = page.signedIn && facts.evidence === "strong";
  if (success && page.successBefore && !page.identifierOnlyShown)
    return { next: { kind: "signed-in" }, loginOfferedAt };
  // "Your account is ready. Log in" on a page that set nothing: the user is to sign in.
  const offeredAt = !success && page.offersLogin ? (loginOfferedAt ?? page.now) : null;
  if (shownLongEnough(offeredAt, page.now, LOGIN_OFFER_LOOKS))
    return { next: { kind: "sign-in" }, loginOfferedAt: offeredAt };
  return { next: { kind: "looks", success }, loginOfferedAt: offeredAt };
}

/** What the page shows when the clock ran out without a verdict. */
export interface SignupTimeUpRead {
  timedOut: boolean;
  /** The signup form is still shown. */
  form: boolean;
  otpPrompt: boolean;
  confirmByEmail: boolean;
}

/** The verdict when the clock ran out: a refusal, or a login to try (the login's verdict decides). */
export function signupTimeUp(
  page: SignupTimeUpRead,
  verified: boolean,
): SignupVerdict | { kind: "refused"; code: LoginFailureCode; message: string } {
  if (page.timedOut) return refused("timeout", "timed out waiting for the page after the signup");
  if (page.form && !verified) return refused("login_unconfirmed", "the signup form is still shown, without a message");
  if (page.otpPrompt || page.confirmByEmail)
    return refused("login_unconfirmed", "the site still asks to confirm the email");
  return { kind: "login", verified };
}
