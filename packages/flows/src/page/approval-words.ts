/**
 * What a page says when it waits for the sign-in to be approved on another device (a push to a phone or an
 * authenticator app: Duo, Okta Verify, Microsoft Authenticator), in the languages most login pages use.
 * Every phrase names the sign-in or the push itself: an app's own approvals ("Approve the request",
 * "Pending approval") are not it. Read in the page (a source string, see readFrameInPage) and here (tests).
 */
export const APPROVAL_WORDS =
  "approve (the |this |your )?(sign.?in|log.?in|login)( request| attempt)?" +
  "|(sent|send|pushed) (you )?(a |an )?(push|sign.?in request|login request|notification)( notification)? to (your|the) (phone|device|mobile|app)" +
  "|check (your|the) (phone|mobile|authenticator app) to (approve|confirm|continue|sign in)" +
  "|tap (yes|approve|allow) (on|in) (your|the) (phone|app|notification)" +
  "|duo push|okta verify push" +
  "|anmeldung (best[aä]tigen|genehmigen)|approuvez (la|votre) connexion|aprueba (el|tu) inicio de sesi[oó]n|aprove (o|seu) login|approva (l.)?accesso";

const APPROVAL = new RegExp(APPROVAL_WORDS, "i");

/** Whether the text asks to approve the sign-in on another device. */
export function asksApproval(text: string): boolean {
  return APPROVAL.test(text);
}
