import { type LoginFailureCode, refusalCode } from "@authsvc/contracts";
import { refusesFactor } from "../login/verdict/factor-refusal";
import { signupRefusalOf } from "./signup-verdicts";

export const MAX_USERNAME_VARIANTS = 3;
export const MAX_PASSWORD_RETRIES = 2;

/** What the page shows beside a message of the site after the signup went out. */
export interface SignupPageShows {
  /** The signup form, shown again. */
  form: boolean;
  /** A page to choose the account's password on (see isSetPasswordForm). */
  setPasswordForm: boolean;
  /** The account signed in (its sign-out control or menu). */
  signedIn: boolean;
}

/** What the signup did so far, as far as a message of the site is read by it. */
export interface SignupSoFar {
  codeAnswered: boolean;
  linkOpened: boolean;
  /** A passwordless signup's mail was read (its password, or the link to set one). */
  accountMailRead: boolean;
  /** How many passwords were set on the page the mail's link opened. */
  passwordSets: number;
  usernameVariants: number;
  passwordRetries: number;
  /** The caller gave the password: never made again to the site's words. */
  passwordGiven: boolean;
  passwordGenerated: boolean;
  hasUsername: boolean;
}

/**
 * What one message means: the signup's refusal (with its code), or what is done about it (a new password
 * set again, a variant of a taken username, a generated password made to the site's rules); null when it
 * refuses nothing.
 */
export type SignupMessageVerdict =
  | { kind: "refused"; code: LoginFailureCode; message: string }
  | { kind: "set-password-again" }
  | { kind: "username-variant" }
  | { kind: "regenerate-password" };

/** Reads one new message of the site after the signup form (or its code, link or new password) went out. */
export function readSignupMessage(
  message: string,
  page: SignupPageShows,
  so: SignupSoFar,
): SignupMessageVerdict | null {
  if (so.codeAnswered || so.linkOpened) {
    if (refusesFactor(message) || (so.accountMailRead && !so.passwordSets && /\binvalid\b/i.test(message))) {
      const what = `${so.accountMailRead ? "set-password" : "confirmation"} ${so.codeAnswered ? "code" : "link"}`;
      return { kind: "refused", code: "verification_failed", message: `the site refused the ${what}: ${message}` };
    }
    if (so.passwordSets === 0 || !page.setPasswordForm) return null;
    // The site refused the password set on its page: a generated one is made again to its words.
    if (so.passwordGiven || so.passwordSets > MAX_PASSWORD_RETRIES)
      return { kind: "refused", code: "verification_failed", message: `the site refused the new password: ${message}` };
    return { kind: "set-password-again" };
  }
  const kind = signupRefusalOf(message);
  // Only the form shown again is a refusal: a page past it may say "registered" in a welcome.
  if (kind === "account_exists" && page.form) return { kind: "refused", code: "account_exists", message };
  if (kind === "username_taken" && page.form && so.hasUsername && so.usernameVariants < MAX_USERNAME_VARIANTS)
    return { kind: "username-variant" };
  if (kind === "password_rules" && page.form && so.passwordGenerated && so.passwordRetries < MAX_PASSWORD_RETRIES)
    return { kind: "regenerate-password" };
  if (page.form && (kind !== "other" || refusalCode(message) !== null))
    return { kind: "refused", code: "signup_rejected", message };
  // The signup form gone, and a page that shows no account says no ("That invitation code is not valid."
  // above a login form): the site made no account, and a login would only be refused.
  if (!page.form && !page.signedIn && refusalCode(message) === "invalid_credentials")
    return { kind: "refused", code: "signup_rejected", message };
  return null;
}
