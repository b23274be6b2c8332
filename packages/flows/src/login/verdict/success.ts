import { samePath } from "./outcome";
import type { PollReading } from "./poll-reading";
import { fail, type Decision, type Step } from "./state";

/** An interstitial question past the form ("Stay signed in?"): its "yes" is clicked, unless it sent the password. */
export function interstitial({ stillAsking, interstitial, can, facts }: PollReading): Step | null {
  if (stillAsking || !interstitial || samePath(interstitial, can.submitted) || facts.interstitialUnanswered)
    return null;
  return { kind: "answer-interstitial" };
}

/**
 * Success needs the form gone, no question left and new session state, seen on two polls in a row, or on
 * one poll when the signed-in marker this site showed before is there. Weak evidence (no account shown, no
 * page of its own, or only cookies that rotate anyway) is no success unless the second look proves it.
 */
export function success(poll: PollReading): Decision {
  const { stillAsking, interstitial, signals, facts, can, found } = poll;
  const weighed = !stillAsking && !interstitial;
  if (weighed && facts.evidence === undefined) return { kind: "weigh-session" };
  const seen = weighed ? facts.evidence! : "none";
  // A chooser is a step: whether the site signed in before the choice is for its login page to say.
  const evidence = seen === "strong" && signals.chooser ? "weak" : seen;
  const looksSignedIn = evidence !== "none";
  if (!looksSignedIn || !(poll.successBefore || samePath(found, can.learnedMarker))) {
    return { kind: "looks", success: looksSignedIn };
  }
  if (evidence === "weak") {
    // A chooser is a step: the page it is on is never the signed-in page the second look may compare.
    if (can.confirmSession && !facts.secondLook) return { kind: "second-look", onAStep: !!signals.chooser };
    const looked = facts.secondLook ?? { signedIn: null, why: "nothing was checked" };
    if (!looked.signedIn)
      return fail("login_unconfirmed", `the login form is gone, but nothing proves a session: ${looked.why}`);
  }
  return { kind: "verdict", outcome: { kind: "success", marker: found } };
}
