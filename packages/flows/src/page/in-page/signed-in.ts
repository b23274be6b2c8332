/**
 * The evidence of a signed-in page in a frame: a sign-out control or an account menu shown, a sign-out
 * control held anywhere, the account's name shown as text.
 */
import type { FrameContext } from "./frame-context";

/** The sign-out control or account menu shown, and whether it is a sign-out control. */
export function readSignedIn(frame: FrameContext): { signedIn: Element | null; signOutShown: boolean } {
  const { kit, all, signOut } = frame;
  const signedIn = kit.signedInSign(all, signOut);
  const signOutShown = !!signedIn && kit.isSignOut(signedIn, signOut);
  return { signedIn, signOutShown };
}

export function signedInEvidence(
  frame: FrameContext,
  signedIn: Element | null,
): { signOutHeld: boolean; nameShown: boolean } {
  const { kit, all, signOut, identifier, shownText } = frame;
  return {
    signOutHeld: !!signedIn || all.some((el) => kit.isSignOut(el, signOut)),
    // As a whole word, and only a name no page says by chance ("admin" in "Contact your admin" is not the account).
    nameShown:
      (identifier.length >= 6 || /[\d@._-]/.test(identifier)) &&
      identifier.length >= 3 &&
      new RegExp(
        `(^|[^\\p{L}\\p{N}])${identifier.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`,
        "iu",
      ).test(shownText),
  };
}
