/** The password field of the best login form a frame shows. */
import type { FrameContext } from "./frame-context";
import { words } from "@authsvc/contracts/src/words/reader-words";

/**
 * The password field (null when none is shown), and every field that could be one (the identifier is none
 * of them). `signOutShown`: the frame shows a sign-out control (see readSignedIn).
 */
export function readPassword(
  frame: FrameContext,
  signOutShown: boolean,
): { password: HTMLInputElement | null; passwordCandidates: HTMLInputElement[] } {
  const { inputs, fillable, isQuestion, contextText } = frame;
  const { formOf, best } = frame.kit;
  const passwordCandidates = inputs.filter(
    (el) =>
      fillable(el) &&
      !isQuestion(el) &&
      (el.type === "password" ||
        // A password shown as text by its "show" toggle still is the password field.
        (["text", ""].includes(el.type) &&
          (/current-password/.test(el.autocomplete) || words.password.test(`${el.name} ${el.id}`)))),
  );
  const bestPassword = best(passwordCandidates, (el) => {
    let s = 10;
    if (/current-password/.test(el.autocomplete)) s += 5;
    if (/new-password/.test(el.autocomplete)) s -= 6;
    const form = formOf(el);
    const siblings = form
      ? [...form.querySelectorAll("input")].filter((i) => i.type === "password" && fillable(i))
      : [];
    if (siblings.length > 1) s -= 4; // password + confirmation: a signup form
    if (words.signup.test(contextText(el)) && !words.submit.test(contextText(el))) s -= 3;
    return s;
  });
  // A signed-in page's "set a new password" field (a profile page right after the login) is no login form:
  // only beside a sign-out control (an account-menu look-alike, an anonymous avatar, is on login pages too).
  const password = bestPassword && /new-password/.test(bestPassword.autocomplete) && signOutShown ? null : bestPassword;
  return { password, passwordCandidates };
}
