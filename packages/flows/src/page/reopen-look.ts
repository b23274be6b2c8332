/**
 * What a tab shows at an address: `form` (a password field, a username-first step, or only a "Log in"
 * control after the wait), `account` (a sign-out control or account menu, or the account's name when one is
 * given), `elsewhere` (sent on to another page, settled there without a form), `nothing` (it stayed at the
 * address showing neither for the whole wait: a slow page, or one that shows neither), `nothing+` (nothing,
 * but a sign-out control is in the page, hidden in a menu), `unreadable` (it did not load, an HTTP error,
 * never readable).
 */
export type Look = "form" | "account" | "elsewhere" | "nothing" | "nothing+" | "unreadable";

/** One look at a tab opened again at the login page, as the rule reads it: no browser in it. */
export interface ReopenSight {
  /** Every frame of the page could be read. */
  readable: boolean;
  /** A password field, or a username-first step. */
  form: boolean;
  /** A sign-out control or account menu, or the account's name. */
  account: boolean;
  /** The document finished loading (`readyState` complete). */
  parsed: boolean;
  /** Only a "Log in" control (an opener) is offered. */
  offersSignIn: boolean;
  /** A sign-out control is in the page, hidden (in a menu). */
  signOutHeld: boolean;
  /** The tab is at another page than the login page. */
  movedAway: boolean;
  now: number;
}

// A page the site sent the second tab on to counts once it stayed quiet, without a form, this many polls.
const REOPEN_QUIET_POLLS = 2;

/** What the looks before this one saw. */
export interface ReopenSoFar {
  /** How many looks in a row saw a settled page without a form and without a "Log in" offer. */
  readonly quiet: number;
  /** How many looks in a row saw a visitor's settled page offer only "Log in". */
  readonly offered: number;
}

export const REOPEN_START: ReopenSoFar = { quiet: 0, offered: 0 };

/**
 * What one look makes of the tab: a look, or null (look again), with what the next look starts from.
 * `visitor`: the tab is a visitor's without any session (see `secondLook`).
 */
export function readReopen(
  sight: ReopenSight | null,
  so: ReopenSoFar,
  visitor: boolean,
): { look: Look | null; so: ReopenSoFar } {
  // A page that never became readable proves nothing.
  if (!sight || !sight.readable) return { look: null, so };
  if (sight.form) return { look: "form", so };
  if (sight.account) return { look: "account", so };
  // A visitor without any session offered only "Log in" on a settled page is asked to sign in.
  const offered = visitor && sight.offersSignIn && sight.parsed ? so.offered + 1 : 0;
  const quiet = sight.parsed && !sight.offersSignIn ? so.quiet + 1 : 0;
  const next = { quiet, offered };
  if (offered >= REOPEN_QUIET_POLLS) return { look: "form", so: next };
  // Sent elsewhere (a signed-in user's redirect away from the login page), and settled there without a form.
  if (quiet >= REOPEN_QUIET_POLLS && sight.movedAway) return { look: "elsewhere", so: next };
  // Settled at the address, a sign-out control in it (hidden in a menu, as a single-page app's is): what
  // it is will not change by waiting out the rest (a page still fetching is not quiet).
  if (quiet > REOPEN_QUIET_POLLS && sight.signOutHeld) return { look: "nothing+", so: next };
  return { look: null, so: next };
}

/**
 * The look once the wait is over: still at the address with neither a form nor the account, a slow page or
 * one that shows neither; a session is never inferred from a page that shows nothing yet.
 */
export function reopenTimeUp(sight: ReopenSight | null | undefined): Look {
  if (!sight || !sight.readable) return "unreadable";
  if (sight.offersSignIn) return "form";
  return sight.signOutHeld ? "nothing+" : "nothing";
}
