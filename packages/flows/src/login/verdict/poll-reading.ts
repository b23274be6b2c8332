import { type LoginFailureCode, refusalCode } from "@authsvc/contracts";
import { refusesFactor } from "./factor-refusal";
import { samePath, type SignedInMarker } from "./outcome";
import type { VerdictFacts, VerdictInput, VerdictState } from "./state";

export interface Refusal {
  m: string;
  code: LoginFailureCode | null;
}

/** A poll with what every rule reads of it worked out once: what the rules are given. */
export interface PollReading extends VerdictInput {
  facts: VerdictFacts;
  /** The page still asks for the password or the username: never a success. */
  stillAsking: boolean;
  /** A code was typed, a link opened or a step answered: a refusal now is of that, not of the password. */
  afterFactor: boolean;
  /** What a message refuses, read as of this point of the login. */
  refusalOf: (m: string) => LoginFailureCode | null;
  /** The messages that refuse, and beside a form still shown, new plain text that refuses. */
  refusals: Refusal[];
  /** The signed-in marker the page shows. */
  found: SignedInMarker | null;
  /** The "yes" of an interstitial question ("Stay signed in?") the page shows. */
  interstitial: SignedInMarker | null;
}

export function readPoll(input: VerdictInput, state: VerdictState, facts: VerdictFacts): PollReading {
  const { scans, signals, fresh, sayings } = input;
  // The one field of a "verify it's you" step reads like a username-first form's: it is the step's.
  const verifyField = signals.verify?.reading.verify?.field ?? null;
  const verifying =
    !!verifyField &&
    samePath({ frame: "", path: verifyField }, { frame: "", path: signals.verify!.reading.identifier ?? [] }) &&
    scans.filter((s) => s.reading.identifier).length === 1;
  const stillAsking = signals.passwordShown || (signals.identifierOnlyShown && !verifying);
  const afterFactor = state.otpAnswered || state.linkOpened || state.stepAnswers > 0;
  const refusalOf = (m: string): LoginFailureCode | null => {
    const code = refusalCode(m);
    return afterFactor && code !== "account_locked" && refusesFactor(m, code) ? "verification_failed" : code;
  };
  const refusals = [
    ...fresh.map((m) => ({ m, code: refusalOf(m) })),
    ...(stillAsking ? sayings.map((s) => ({ m: s.block, code: refusalOf(s.news) })) : []),
  ].filter((r) => r.code !== null);
  const { signedIn, interstitial } = signals;
  return {
    ...input,
    facts,
    stillAsking,
    afterFactor,
    refusalOf,
    refusals,
    found: signedIn ? { frame: signedIn.key, path: signedIn.reading.signedIn! } : null,
    interstitial: interstitial ? { frame: interstitial.key, path: interstitial.reading.interstitial! } : null,
  };
}
