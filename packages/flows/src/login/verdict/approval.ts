import { promptOf } from "../../handoff";
import { emailConfirmationSettled } from "./email-confirmation";
import type { PollReading } from "./poll-reading";
import { fail, type Step, type VerdictState } from "./state";

// How many times a person is asked to approve ("look again" brings the page back to the question).
export const APPROVAL_TRIES = 3;

/**
 * "Approve the sign-in on your phone", or "verify it's you" with nothing to type (it waits for the person
 * elsewhere, a link mailed to them that is not ours to read): only a person can, and the page goes on by
 * itself once they did. A person is asked when the caller allowed a hand-off; else it is mfa_required.
 */
export function approval(poll: PollReading, state: VerdictState): Step | null {
  const { signals, stillAsking, can } = poll;
  const verifyElsewhere =
    !stillAsking &&
    !signals.otpPrompt &&
    !state.linkOpened &&
    ((!!signals.verify && !signals.confirmByEmail) || (emailConfirmationSettled(state, poll.now) && !can.answerLink)) &&
    (can.awaitApproval || !signals.confirmByEmail);
  if (!(!stillAsking && signals.approvalPrompt && !signals.otpPrompt) && !verifyElsewhere) return null;
  const reason = signals.approvalPrompt ? ("approval" as const) : ("verification" as const);
  if (!can.awaitApproval) {
    return fail(
      "mfa_required",
      reason === "approval"
        ? "the site asked to approve the sign-in on another device (a push to a phone or an app)"
        : "the site asked to verify it's the account's owner",
    );
  }
  if (state.approval?.failure) return { kind: "raise", error: state.approval.failure };
  // "Approved: look again": a page that does not ask its site by itself is loaded again.
  if (state.approval?.answered) return { kind: "await-approval", then: "reload", set: { approval: null } };
  if (state.approval) return { kind: "await-approval", then: "look" };
  if (state.approvalsAsked >= APPROVAL_TRIES)
    return fail("mfa_required", `the site still asked to approve the sign-in after ${APPROVAL_TRIES} answers`);
  const prompt =
    reason === "approval"
      ? (poll.scans.find((s) => s.reading.approvalPrompt)?.reading.text ?? "")
      : (signals.verify?.reading.verify?.prompt ??
        poll.scans.find((s) => s.reading.confirmByEmail)?.reading.text ??
        "");
  return {
    kind: "await-approval",
    then: { ask: promptOf(prompt), reason },
    set: { approvalsAsked: state.approvalsAsked + 1 },
  };
}

/** The page went on while a person was asked to approve (approved on the phone, or a refusal): the question is withdrawn. */
export function withdrawApproval(poll: PollReading, state: VerdictState): Step | null {
  if (!state.approval) return null;
  if (!poll.facts.approvalWithdrawn) return { kind: "withdraw-approval" };
  return { kind: "note", set: { approval: null } };
}
