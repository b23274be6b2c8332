import { refusalSaid } from "../../page/page-sayings";
import type { PollReading } from "./poll-reading";
import { fail, type Step, type VerdictState } from "./state";

/**
 * A one-time-code prompt without the password: the code is answered (another try after a refusal, while
 * the caller has tries left), or its refusal is the verdict; without a way to answer it is mfa_required.
 * Once answered, a prompt with nothing new goes on to the rules after this one.
 */
export function oneTimeCode(poll: PollReading, state: VerdictState): Step | null {
  const { signals, scans, fresh, sayings, can } = poll;
  if (signals.passwordShown || !signals.otpPrompt) return null;
  const prompt = scans.find((s) => s.reading.otp.length > 0);
  // The prompt again, with new plain text that refuses the code ("That code didn't work." in a div).
  const said = state.otpAnswered ? refusalSaid(sayings, "verification_failed") : null;
  let refused: string | null = null;
  if (state.otpAnswered && fresh.length > 0) refused = fresh[0]!;
  else if (state.otpAnswered && said?.code === "verification_failed") refused = said.message;
  if (refused && prompt && can.answerOtp && state.codesGiven < can.codeTries) {
    // Another try (a person's): the refusal is no verdict while this document shows it.
    return {
      kind: "act",
      action: { kind: "answer-otp", prompt, refusal: refused },
      hold: refused,
      set: { codesGiven: state.codesGiven + 1 },
    };
  }
  if (state.otpAnswered && fresh.length > 0)
    return fail("verification_failed", `the site refused the one-time code: ${fresh[0]}`);
  if (said)
    return fail(
      said.code,
      said.code === "verification_failed" ? `the site refused the one-time code: ${said.message}` : said.message,
    );
  if (!state.otpAnswered && prompt && can.answerOtp) {
    return { kind: "act", action: { kind: "answer-otp", prompt }, set: { otpAnswered: true, codesGiven: 1 } };
  }
  if (!state.otpAnswered) return fail("mfa_required", "the site asked for a one-time code");
  return null;
}
