import { approval, withdrawApproval } from "./approval";
import { countEmailConfirmation, emailConfirmation } from "./email-confirmation";
import { aboutTheForm, codeRefusal, formRefusal, formValidation, unsettledMessage } from "./form-refusal";
import type { Outcome } from "./outcome";
import { personStep } from "./person-step";
import { type PollReading, readPoll } from "./poll-reading";
import { captcha, formlessRefusal, locked, siteError, standingRefusal } from "./refusal";
import { oneTimeCode } from "./second-factor";
import type { Decision, Step, VerdictFacts, VerdictInput, VerdictState } from "./state";
import { interstitial, success } from "./success";

type Rule = (poll: PollReading, state: VerdictState) => Step | null;

/** A poll while the page navigates reads no frame: no verdict, nothing learned. */
const navigating: Rule = ({ scans }) => (scans.length === 0 ? { kind: "looks", success: false } : null);

const passwordShown: Rule = ({ signals }) => ({ kind: "note", set: { lastPasswordShown: signals.passwordShown } });

/**
 * The verdict rules, first to last: the first that decides is the poll's decision. Refusals the account
 * owns (a lock, a CAPTCHA) come before any step; the second factors and the person's steps before the
 * refusals of the form; success only when nothing before it decided.
 */
export const RULES: readonly Rule[] = [
  navigating,
  passwordShown,
  locked,
  captcha,
  oneTimeCode,
  personStep,
  countEmailConfirmation,
  approval,
  withdrawApproval,
  emailConfirmation,
  aboutTheForm,
  codeRefusal,
  formRefusal,
  unsettledMessage,
  formValidation,
  standingRefusal,
  interstitial,
  formlessRefusal,
  siteError,
];

/**
 * What one poll comes to, from the state before it: the decision and the state after it. A question for
 * the loop (see VerdictFacts) is asked again, from the same state, with its answer in `facts`.
 */
export function judgePoll(
  input: VerdictInput,
  before: VerdictState,
  facts: VerdictFacts = {},
): { decision: Decision; state: VerdictState } {
  const poll = readPoll(input, before, facts);
  let state = before;
  for (const rule of RULES) {
    const step = rule(poll, state);
    if (!step) continue;
    const { set, ...decision } = step;
    if (set) state = { ...state, ...set };
    if (decision.kind !== "note") return { decision, state };
  }
  return { decision: success(poll), state };
}

/** The verdict when the clock ran out without one. */
export function timeUp(state: VerdictState, status: number, timedOut: boolean): Outcome {
  if (timedOut) return { kind: "failure", code: "timeout", message: "timed out waiting for the page after submit" };
  if (status >= 400)
    return { kind: "failure", code: "login_unconfirmed", message: `the site answered the login with HTTP ${status}` };
  return {
    kind: "failure",
    code: "login_unconfirmed",
    message: state.lastPasswordShown
      ? "the login form is still shown, without an error message"
      : "the login form is gone but the site set no new session state",
  };
}

/** Declined terms that keep the account out: the person's decision, said as such (the site's words after). */
export function afterDecline(outcome: Outcome, state: VerdictState): Outcome {
  if (!state.declined || outcome.kind !== "failure" || outcome.code === "account_locked") return outcome;
  return {
    kind: "failure",
    code: "consent_denied",
    message: `the site's terms were declined, and it did not sign in: ${outcome.message}`,
  };
}
