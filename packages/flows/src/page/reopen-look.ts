import { shownLongEnough } from "./watch-timing";

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

// A page the site sent the second tab on to counts once it stayed quiet, without a form, as long as this many
// looks take (timed, not counted: a look woken by the page drawing something may come at once).
const REOPEN_QUIET_LOOKS = 2;

/** What the looks before this one saw. */
export interface ReopenSoFar {
  /** Since when every look saw a settled page without a form and without a "Log in" offer (null: not the last). */
  readonly quietAt: number | null;
  /** Since when every look saw a visitor's settled page offer only "Log in" (null: not the last). */
  readonly offeredAt: number | null;
}

export const REOPEN_START: ReopenSoFar = { quietAt: null, offeredAt: null };

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
  const { now } = sight;
  const offeredAt = visitor && sight.offersSignIn && sight.parsed ? (so.offeredAt ?? now) : null;
  const quietAt = sight.parsed && !sight.offersSignIn ? (so.quietAt ?? now) : null;
  const next = { quietAt, offeredAt };
  if (shownLongEnough(offeredAt, now, REOPEN_QUIET_LOOKS)) return { look: "form", so: next };
  // Sent elsewhere (a signed-in user's redirect away from the login page), and settled there without a form.
  if (shownLongEnough(quietAt, now, REOPEN_QUIET_LOOKS) && sight.movedAway) return { look: "elsewhere", so: next };
  // Settled at the address, a sign-out control in it (hidden in a menu, as a single-page app's is): what
  // it is will not change by waiting out the rest (a page still fetching is not quiet).
  if (shownLongEnough(quietAt, now, REOPEN_QUIET_LOOKS + 1) && sight.signOutHeld) return { look: "nothing+", so: next };
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
