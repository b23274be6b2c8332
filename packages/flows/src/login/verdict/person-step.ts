import { refusalSaid } from "../../page/page-sayings";
import type { PersonStep } from "./outcome";
import type { PollReading } from "./poll-reading";
import { fail, type Step, type VerdictState } from "./state";

// How many answers one person step gets in all (a refused one is asked again).
export const STEP_TRIES = 3;

const UNANSWERED: Record<PersonStep, string> = {
  question: "the site asked a security question only the account's owner can answer",
  chooser: "the site asked to choose an account", // (a chooser is a step only with a person to ask)
  verification: "the site asked to verify it's the account's owner (a new device or an unusual sign-in)",
  consent: "the site holds the sign-in until its terms are accepted, which only the account's owner can do",
};

/** The person step the page shows: terms to accept even beside a username field, the others only without. */
function personStepShown({ signals, stillAsking, can }: PollReading): PersonStep | null {
  if (signals.otpPrompt || signals.passwordShown) return null;
  if (signals.terms) return "consent";
  if (stillAsking) return null;
  if (signals.question) return "question";
  if (signals.chooser && can.answerStep) return "chooser";
  if (signals.verify?.reading.verify?.field) return "verification";
  return null;
}

/**
 * A security question, a chooser of the account to go on as, terms to accept, a "verify it's you" field: a
 * person answers (again after a refusal, up to STEP_TRIES answers), and the site judges it.
 */
export function personStep(poll: PollReading, state: VerdictState): Step | null {
  const step = personStepShown(poll);
  if (!step) return null;
  const { signals, fresh, sayings } = poll;
  const scan = {
    question: signals.question,
    chooser: signals.chooser,
    verification: signals.verify,
    consent: signals.terms,
  }[step]!;
  if (!poll.can.answerStep) return fail("mfa_required", UNANSWERED[step]);
  const answered = state.stepAnswers > 0;
  const said = answered ? refusalSaid(sayings, "verification_failed") : null;
  const refused = !answered ? null : fresh.length > 0 ? fresh[0]! : said ? said.message : null;
  // Answered, and the step still shows without a word from the site: its answer is on the way.
  if (answered && !refused) return { kind: "again" };
  if (refused && state.stepAnswers >= STEP_TRIES)
    return fail("verification_failed", `the site refused the answer: ${refused}`);
  return {
    kind: "act",
    action: { kind: "answer-step", scan, step, refusal: refused ?? undefined },
    hold: refused ?? undefined,
    set: { stepAnswers: state.stepAnswers + 1 },
  };
}
