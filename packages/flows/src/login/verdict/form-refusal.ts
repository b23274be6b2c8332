import { asksForCode, type LoginFailureCode, namesEmptyField, siteFault } from "@authsvc/contracts";
import type { PollReading } from "./poll-reading";
import { fail, type Step, type VerdictState } from "./state";
import { settle } from "./unsettled-message";

// Words that name a one-time code, in a refusal of a form that held one.
const CODE_WORD = /\b(code|token|otp|totp|pin|2fa)\b|\bcodice\b|\bc[oó]digo\b/i;

const refusedCode = ({ afterFactor }: PollReading): LoginFailureCode =>
  afterFactor ? "verification_failed" : "invalid_credentials";

/**
 * Beside the form shown again, words about the form as it was sent, not the credentials: a code it wants
 * ("Please enter your OTP token.") or refused, a field it got empty ("The password field is empty.").
 */
export function aboutTheForm({ stillAsking, refusals, fresh, codeInForm }: PollReading): Step | null {
  if (!stillAsking) return null;
  const said = [...refusals.map((r) => r.m), ...fresh].find((m) => asksForCode(m) || namesEmptyField(m));
  if (said === undefined) return null;
  if (!asksForCode(said))
    return fail(
      "login_unconfirmed",
      `the site says its form came with a field empty, though every field was filled and checked before it was sent: ${said}`,
    );
  if (codeInForm) return fail("verification_failed", `the site refused the one-time code: ${said}`);
  return fail("mfa_required", `the site asks for a second factor's code with the password: ${said}`, said);
}

/** A code typed in the password's own form, refused in words that name it ("Invalid token."): the code's refusal. */
export function codeRefusal({ stillAsking, codeInForm, refusals }: PollReading): Step | null {
  if (!stillAsking || !codeInForm) return null;
  const refusal = refusals.find((r) => r.code === "invalid_credentials" && CODE_WORD.test(r.m));
  return refusal ? fail("verification_failed", `the site refused the one-time code: ${refusal.m}`) : null;
}

/** The form shown again with a refusal; "Something went wrong" is the site's fault, not a refusal of the credentials. */
export function formRefusal(poll: PollReading): Step | null {
  const { stillAsking, refusals } = poll;
  if (!stillAsking || refusals.length === 0) return null;
  const refusal = refusals.find((r) => !siteFault(r.m)) ?? refusals[0]!;
  const own = refusal.code === "account_locked" || refusal.code === "login_blocked";
  return fail(own ? refusal.code! : siteFault(refusal.m) ? "login_unconfirmed" : refusedCode(poll), refusal.m);
}

/** Beside the form, a message without refusal words ("Checking…") counts once it stayed shown (`WATCH_TIMING.messageSettleMs`). */
export function unsettledMessage(poll: PollReading, state: VerdictState): Step | null {
  const { stillAsking, fresh, now } = poll;
  if (!stillAsking || fresh.length === 0) return null;
  const { settled, unsettled } = settle(state.unsettled, fresh[0]!, now);
  return settled ? fail(refusedCode(poll), fresh[0]!) : { kind: "again", set: { unsettled } };
}

/** The browser kept the form from being sent: the site never saw the attempt. */
export function formValidation({ stillAsking, signals }: PollReading): Step | null {
  if (!stillAsking || !signals.validation) return null;
  return fail("invalid_credentials", `the login form does not accept the username: ${signals.validation}`);
}
