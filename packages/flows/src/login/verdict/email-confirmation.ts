import { shownLongEnough } from "../../page/watch-timing";
import type { PollReading } from "./poll-reading";
import { fail, type Step, type VerdictState } from "./state";

/**
 * "Check your email" counts once it stayed shown without a code field on a second look, at least one watch's
 * pause later: a page still being parsed can show its heading before its code field, and a code prompt must not
 * be taken for a link. Timed, not counted: a look woken by the page drawing something may come at once.
 */
export function countEmailConfirmation({ stillAsking, signals, now }: PollReading, state: VerdictState): Step {
  const shown = !stillAsking && signals.confirmByEmail && !signals.otpPrompt;
  return { kind: "note", set: { confirmShownAt: shown ? (state.confirmShownAt ?? now) : null } };
}

/** Whether "check your email" has been shown long enough to count (see `countEmailConfirmation`). */
export const emailConfirmationSettled = (state: VerdictState, now: number): boolean =>
  shownLongEnough(state.confirmShownAt, now, 2);

/** "Check your email", settled: our mailbox's sign-in link is opened, when the caller brought one. */
export function emailConfirmation({ can, now }: PollReading, state: VerdictState): Step | null {
  if (state.confirmShownAt === null || state.linkOpened) return null;
  if (!emailConfirmationSettled(state, now)) return { kind: "wait" };
  if (can.answerLink) return { kind: "act", action: { kind: "open-link" }, set: { linkOpened: true } };
  return fail("mfa_required", "the site asked to confirm the sign-in by email");
}
