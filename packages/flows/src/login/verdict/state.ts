import type { LoginFailureCode } from "@authsvc/contracts";
import type { Saying } from "../../page/page-sayings";
import type { FrameScan, PageSignals } from "../../page/scan-page";
import type { SecondLookAnswer } from "../../page/second-look";
import type { Evidence } from "../../page/session-evidence";
import type { Outcome, PendingApproval, PersonStep, SignedInMarker } from "./outcome";
import type { UnsettledMessage } from "./unsettled-message";

/** What the watch after a submit has done and seen so far: the only memory the verdict rules have. */
export interface VerdictState {
  /** Whether the last poll that read the page showed the password field (the time-up verdict says so). */
  readonly lastPasswordShown: boolean;
  /** A message without refusal words beside the form, waited on until it settles. */
  readonly unsettled: UnsettledMessage | null;
  readonly otpAnswered: boolean;
  /** How many codes the prompt was given in all. */
  readonly codesGiven: number;
  readonly approval: PendingApproval | null;
  readonly approvalsAsked: number;
  readonly linkOpened: boolean;
  readonly stepAnswers: number;
  /** The person turned down the site's terms: a failure after it is theirs (consent_denied), not the password's. */
  readonly declined: boolean;
  /** Since when every poll showed "check your email" without a code field (null: the last one did not). */
  readonly confirmShownAt: number | null;
}

export const START: VerdictState = {
  lastPasswordShown: true,
  unsettled: null,
  otpAnswered: false,
  codesGiven: 0,
  approval: null,
  approvalsAsked: 0,
  linkOpened: false,
  stepAnswers: 0,
  declined: false,
  confirmShownAt: null,
};

/** What the caller can do about a page (ClassifyOptions): which answers it brought, and what it knows. */
export interface VerdictMeans {
  answerOtp: boolean;
  /** How many codes one prompt may be given in all. */
  codeTries: number;
  answerStep: boolean;
  awaitApproval: boolean;
  answerLink: boolean;
  confirmSession: boolean;
  /** The control that sent the password: never clicked again, even when it reads like "Continue". */
  submitted: SignedInMarker | null;
  learnedMarker: SignedInMarker | null;
}

/** One poll of the page, as the rules read it: no browser in it. */
export interface VerdictInput {
  scans: FrameScan[];
  signals: PageSignals;
  /** Messages not seen before the submit or the last action, then the page's dialogs. */
  fresh: string[];
  /** What the page newly says in plain text since the submit. */
  sayings: Saying[];
  /** The poll before this one looked like a success, and nothing was done to the page since. */
  successBefore: boolean;
  /** HTTP status of the last document the main frame loaded since the submit (0: none yet). */
  status: number;
  /** Whether a one-time code was typed into the password's own form. */
  codeInForm: boolean;
  now: number;
  can: VerdictMeans;
}

/**
 * What the loop found out for the rules in this poll, on their asking: an interstitial it could not answer
 * any more, the approval it withdrew, how far the page proves a session, what the second look proved.
 */
export interface VerdictFacts {
  interstitialUnanswered?: boolean;
  approvalWithdrawn?: boolean;
  evidence?: Evidence;
  secondLook?: SecondLookAnswer;
}

/** What the loop does on the page for a rule; it looks again after it. */
export type PageAction =
  | { kind: "answer-otp"; prompt: FrameScan; refusal?: string }
  | { kind: "answer-step"; scan: FrameScan; step: PersonStep; refusal?: string }
  | { kind: "open-link" };

/** What the rules make of a poll (a PollResult, an action, or a question for the loop). */
export type Decision =
  | { kind: "verdict"; outcome: Outcome }
  /** Whether this poll looks like a success (see PollResult). */
  | { kind: "looks"; success: boolean }
  | { kind: "again" }
  | { kind: "wait" }
  /** Act on the page, then poll again; `hold`: the refusal answered, no verdict while it stays shown. */
  | { kind: "act"; action: PageAction; hold?: string }
  /** The person's answer to an approval is awaited: reload the page, ask them, or only look again. */
  | { kind: "await-approval"; then: "reload" | "look" | { ask: string; reason: "approval" | "verification" } }
  /** The approval failed (no answer in time): the login ends with its error. */
  | { kind: "raise"; error: unknown }
  /** Questions for the loop: it finds the fact out (see VerdictFacts) and asks the rules again. */
  | { kind: "withdraw-approval" }
  | { kind: "answer-interstitial" }
  | { kind: "weigh-session" }
  | { kind: "second-look"; onAStep: boolean };

/** What a rule returns: a decision, or a note of what it saw (the next rules go on from there). */
export type Step = (Decision | { kind: "note" }) & { set?: Partial<VerdictState> };

export const fail = (code: LoginFailureCode, message: string, codeAskedInForm?: string): Decision => ({
  kind: "verdict",
  outcome: { kind: "failure", code, message, ...(codeAskedInForm ? { codeAskedInForm } : {}) },
});
