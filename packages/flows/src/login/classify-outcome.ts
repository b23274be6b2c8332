import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { AfterSubmit, type AfterSubmitOptions, type Poll, type PollResult } from "../page/after-submit";
import { type FrameScan, findFrame, resolveElement } from "../page/scan-page";
import type { SessionSnapshot } from "../page/session-snapshot";
import type { SecondLookAnswer } from "../page/second-look";
import type { Outcome, PendingApproval, PersonStep, SignedInMarker, StepAnswered } from "./verdict/outcome";
import { afterDecline, judgePoll, timeUp } from "./verdict/rules";
import { START, type VerdictFacts, type VerdictInput, type VerdictMeans, type VerdictState } from "./verdict/state";

export type { Outcome, PendingApproval, PersonStep, SignedInMarker, StepAnswered } from "./verdict/outcome";

// How often a page that waits for an approval is looked at again.
const APPROVAL_LOOK_MS = 1000;

export interface ClassifyOptions {
  identifier: string;
  /** The control that sent the password: never clicked again, even when it reads like "Continue". */
  submitted: SignedInMarker | null;
  /** From a learned flow: the element this site's signed-in page showed the last time. */
  learnedMarker?: SignedInMarker | null;
  /** HTTP status of the last document the main frame loaded since the submit (0: none yet). */
  documentStatus?: () => number;
  /** Whether the page went on from the login page (a redirect, a client-side route): evidence of a session. */
  movedAway?: () => boolean;
  /** Whether the page sent any of these stored values back to its site since the submit (PageWatch.sentBack). */
  sentBack?: (tokens: string[]) => boolean;
  /** The main frame's navigations: whether the site is still answering one, how many came (see `AfterSubmitOptions.navigation`). */
  navigation?: AfterSubmitOptions<undefined>["navigation"];
  /**
   * Checks weak evidence of a session (see page/second-look.ts's `secondLook`): proof of a session, beside a
   * visitor without it, or null and why nothing was proven. Without it, weak evidence is no success.
   */
  confirmSession?: (onAStep: boolean) => Promise<SecondLookAnswer>;
  /** Messages of JavaScript dialogs (alert, confirm) the page opened since the submit. */
  dialogs?: () => string[];
  /**
   * Answers a one-time-code prompt (TOTP, a code from our inbox, or a person's), when the request brought a
   * way to; else it is mfa_required. `refusal`: the site refused the code before, in these words.
   */
  answerOtp?: (prompt: FrameScan, refusal?: string) => Promise<void>;
  /** How many codes one prompt may be given in all (a person gets more than one try); default 1. */
  codeTries?: number;
  /**
   * Asks a person to approve the sign-in on their other device, or to verify it's them where the page
   * waits for something done elsewhere (a link mailed to them), when the caller allowed a hand-off; else
   * such a page is mfa_required. The page goes on by itself once they did; their answer ("look again")
   * reloads it.
   */
  awaitApproval?: (prompt: string, reason?: "approval" | "verification") => PendingApproval;
  /**
   * A person answers a security question or a "verify it's you" field, picks from a chooser, or accepts
   * (or declines) the site's terms (the caller allowed a hand-off). Without it those are mfa_required, and a
   * chooser is read as any other page. `refusal`: the site refused the last answer, in these words.
   */
  answerStep?: (scan: FrameScan, kind: PersonStep, refusal?: string) => Promise<StepAnswered>;
  /** Whether a one-time code was typed into the password's own form (a code field beside the password). */
  codeInForm?: () => boolean;
  /** Answers "check your email": waits for the sign-in link in our mailbox and opens it in this page. */
  answerLink?: () => Promise<void>;
  onStep?: (step: string) => void;
  settleMs?: number;
}

/** Whether the page shows the learned signed-in marker, visible, in a document that has been parsed. */
async function markerShown(page: Page, marker: SignedInMarker): Promise<boolean> {
  const frame = findFrame(page, marker.frame);
  const el = frame ? await resolveElement(frame, marker.path) : null;
  if (!el) return false;
  try {
    return await el.evaluate(
      (e) =>
        e.ownerDocument.readyState !== "loading" &&
        e.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
    );
  } finally {
    await el.dispose().catch(() => undefined);
  }
}

/**
 * Watches the page after the password was submitted until it shows a verdict. Success needs the password
 * field gone, no refusal, no question left ("Stay signed in?"), every frame readable, no HTTP error and
 * new session state, seen on two polls in a row, or on one poll when the signed-in marker this site
 * showed before is there. A page that still asks for the password is never a success. The rules are
 * verdict/rules.ts; this loop reads the page, runs them, and does on the page what they return.
 */
export async function classifyOutcome(
  page: Page,
  before: SessionSnapshot,
  deadline: Deadline,
  options: ClassifyOptions,
): Promise<Outcome> {
  const status = () => options.documentStatus?.() ?? 0;
  const watcher = new AfterSubmit(page, deadline, {
    identifier: () => options.identifier,
    before,
    status,
    movedAway: options.movedAway,
    sentBack: options.sentBack,
    navigation: options.navigation,
    dialogs: () => options.dialogs?.() ?? [],
    sayings: true,
    onStep: options.onStep,
    settleMs: options.settleMs,
    // Where this site's signed-in page showed its marker before, the page is read as soon as it shows it.
    shownEarly: options.learnedMarker ? () => markerShown(page, options.learnedMarker!) : undefined,
  });
  const can: VerdictMeans = {
    answerOtp: !!options.answerOtp,
    codeTries: options.codeTries ?? 1,
    answerStep: !!options.answerStep,
    awaitApproval: !!options.awaitApproval,
    answerLink: !!options.answerLink,
    confirmSession: !!options.confirmSession,
    submitted: options.submitted,
    learnedMarker: options.learnedMarker ?? null,
  };
  let state: VerdictState = START;
  const judge = async (poll: Poll<undefined>): Promise<PollResult<Outcome>> => {
    // The rules judge the poll as read now (the status too, not as it is after the loop's own awaits), from
    // the state before it; a question for the loop is asked again from there, with its answer.
    const input: VerdictInput = {
      scans: poll.scans,
      signals: poll.signals,
      fresh: poll.fresh,
      sayings: poll.sayings,
      successBefore: poll.successBefore,
      status: status(),
      codeInForm: options.codeInForm?.() ?? false,
      now: Date.now(),
      can,
    };
    const start = state;
    const facts: VerdictFacts = {};
    for (;;) {
      const judged = judgePoll(input, start, facts);
      const decision = judged.decision;
      if (decision.kind === "withdraw-approval") {
        start.approval!.cancel();
        facts.approvalWithdrawn = true;
        state = { ...state, approval: null };
        continue;
      }
      if (decision.kind === "answer-interstitial") {
        if (await watcher.answerInterstitial(poll)) {
          state = judged.state;
          watcher.restart();
          return "again";
        }
        facts.interstitialUnanswered = true;
        continue;
      }
      if (decision.kind === "weigh-session") {
        facts.evidence = await watcher.newSession(poll);
        continue;
      }
      if (decision.kind === "second-look") {
        facts.secondLook = await options.confirmSession!(decision.onAStep);
        continue;
      }
      state = judged.state;
      switch (decision.kind) {
        case "verdict":
          return { verdict: decision.outcome };
        case "looks":
          return { success: decision.success };
        case "again":
        case "wait":
          return decision.kind;
        case "raise":
          throw decision.error;
        case "act": {
          const { action } = decision;
          const again = await watcher.act(poll, async () => {
            if (action.kind === "answer-otp") await options.answerOtp!(action.prompt, action.refusal);
            else if (action.kind === "open-link") await options.answerLink!();
            else if ((await options.answerStep!(action.scan, action.step, action.refusal)) === "declined")
              state = { ...state, declined: true };
          });
          if (decision.hold) watcher.seeWhileShown(decision.hold);
          return again;
        }
        case "await-approval": {
          const { then } = decision;
          if (then === "reload") await page.reload({ waitUntil: "domcontentloaded" }).catch(() => undefined);
          else if (then !== "look") state = { ...state, approval: options.awaitApproval!(then.ask, then.reason) };
          // The person's time is the hand-off's, not the site's: looked at again every second meanwhile.
          await new Promise((resolve) => setTimeout(resolve, APPROVAL_LOOK_MS));
          watcher.restart();
          return "again";
        }
      }
    }
  };
  try {
    const outcome = await watcher.watch(judge, () => timeUp(state, status(), deadline.remaining() === 0));
    return afterDecline(outcome, state);
  } finally {
    // A verdict reached while a person was asked to approve: the question is withdrawn.
    state.approval?.cancel();
  }
}
