import type { PollReading } from "./poll-reading";
import { fail, type Step, type VerdictState } from "./state";

/**
 * "Check your email" counts once a second poll in a row still shows it without a code field: a page still
 * being parsed can show its heading before its code field, and a code prompt must not be taken for a link.
 */
export function countEmailConfirmation({ stillAsking, signals }: PollReading, state: VerdictState): Step {
  const shown = !stillAsking && signals.confirmByEmail && !signals.otpPrompt;
  return { kind: "note", set: { confirmPolls: shown ? state.confirmPolls + 1 : 0 } };
}

/** "Check your email", settled: our mailbox's sign-in link is opened, when the caller brought one. */
export function emailConfirmation({ can }: PollReading, state: VerdictState): Step | null {
  if (state.confirmPolls === 1 && !state.linkOpened) return { kind: "wait" };
  if (state.confirmPolls <= 1 || state.linkOpened) return null;
  if (can.answerLink) return { kind: "act", action: { kind: "open-link" }, set: { linkOpened: true } };
  return fail("mfa_required", "the site asked to confirm the sign-in by email");
}
