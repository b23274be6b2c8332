import { ACTIVATION_MAILED, NOW_SIGN_IN, SIGNUP_DONE } from "./signup-verdicts";

/** The page's text says what `words` match, in words that were not on the page before the submit. */
function newlySays(text: string, before: string[], ...words: RegExp[]): boolean {
  const said = words.map((w) => w.exec(text)?.[0]).find((m) => m !== undefined);
  return !!said && !before.some((sentence) => sentence.toLowerCase().includes(said.toLowerCase()));
}

/** A page after the signup went out, as far as it may say that the account was made. */
export interface SignupDonePage {
  /** Messages not seen before the submit or the last action. */
  fresh: string[];
  /** The visible text of every frame. */
  text: string;
  /** The sentences the page showed before the submit. */
  before: string[];
  /** The signup form is shown (again). */
  form: boolean;
  otpPrompt: boolean;
  confirmByEmail: boolean;
}

export interface SignupDone {
  /** The messages that may still refuse: the site's words that the account was made never do. */
  fresh: string[];
  /**
   * "confirm-by-link": the site mailed what activates the account, its link comes before any login;
   * "sign-in": it says the account was made and is to sign in, on a page that still shows the signup form.
   */
  next: "confirm-by-link" | "sign-in" | null;
}

/**
 * What the page says of the account being made ("The signup was successful! You can now go to the home
 * page and log in to the system." above the form drawn again), before any of its words is read as a refusal.
 */
export function readSignupDone(page: SignupDonePage, so: { verified: boolean; passwordless: boolean }): SignupDone {
  const done = page.fresh.find((m) => SIGNUP_DONE.test(m) || NOW_SIGN_IN.test(m));
  const fresh = page.fresh.filter((m) => m !== done);
  const saysNewly = (...words: RegExp[]) => newlySays(page.text, page.before, ...words);
  const saysDone =
    !!done || (page.form && !so.verified && page.fresh.length === 0 && saysNewly(SIGNUP_DONE, NOW_SIGN_IN));
  // "Account was successfully created. An email containing the instructions to activate your account was
  // sent to …" above the site's login form: the account signs in once its link is opened, not before.
  // A code asked for on the page is answered where the page asks for it, never as a link.
  const activationMailed =
    !so.verified &&
    !so.passwordless &&
    !page.otpPrompt &&
    (page.fresh.some((m) => ACTIVATION_MAILED.test(m)) || saysNewly(ACTIVATION_MAILED));
  if (activationMailed && (!page.form || saysDone)) return { fresh, next: "confirm-by-link" };
  if (saysDone && page.form && !so.verified && !page.confirmByEmail && !page.otpPrompt)
    return { fresh, next: "sign-in" };
  return { fresh, next: null };
}
