/**
 * What every part of the in-page reader reads a frame with: the kit, the frame's elements, inputs and
 * controls, its shown text, and the tests of a field that more than one part asks (a code, a security
 * question, fillable). Built once per read of the frame.
 */
import { type PageKit, pageKit } from "./kit";
import { words } from "@authsvc/contracts/src/words/reader-words";

export interface StepWords {
  approval: string;
  question: string;
  chooser: string;
  verify: string;
  terms: string;
}

/** What readFrame is given: the caller's identifier and additionalFields keys, and the words it reads by. */
export interface ReadArgs {
  identifier: string;
  extraKeys: string[];
  signOut: { labels: string; address: string };
  stepWords: StepWords;
  methodWords: { password: string; otherWay: string };
}

export type FrameContext = ReturnType<typeof readContext>;

export function readContext(args: ReadArgs) {
  const { stepWords } = args;
  const kit: PageKit = pageKit();
  const { visible, text, describe, formOf } = kit;
  const all = kit.elements();
  // An empty read-only field is an anti-autofill trick (read-only until focused); a filled one is shown, not asked.
  const fillable = (el: HTMLInputElement) => visible(el) && !el.disabled && (!el.readOnly || el.value === "");
  const contextText = (el: Element): string => {
    const scope = formOf(el) ?? el.parentElement?.parentElement ?? el.parentElement;
    return scope ? text(scope).slice(0, 600) : "";
  };

  const inputs = all.filter((el): el is HTMLInputElement => el instanceof HTMLInputElement);
  const clickables = all.filter((el) => kit.isControl(el));
  // What is shown, not what the DOM holds (scripts, templates, hidden forms).
  const shownText = document.body?.innerText ?? "";
  const pageText = shownText.replace(/[ \t]+/g, " ").slice(0, 3000);
  // A security question's field (often a password field): it says so, or it is an "Answer" field on a page that does.
  const questionWords = new RegExp(stepWords.question, "i");
  const isQuestion = (el: HTMLInputElement) =>
    ["text", "password", ""].includes(el.type) &&
    (questionWords.test(describe(el)) || (words.answer.test(describe(el)) && questionWords.test(pageText)));

  // One box per digit: four to ten one-character fields.
  const digitBoxes = inputs.filter(
    (el) => el.maxLength === 1 && ["text", "tel", "number", ""].includes(el.type) && fillable(el),
  );
  const otpBoxes = digitBoxes.length >= 4 && digitBoxes.length <= 10 ? digitBoxes : [];
  // Named like a code, unless it names the user ("codeUtilisateur", "user code": a bank's identifier).
  const isOtp = (el: HTMLInputElement) =>
    el.autocomplete === "one-time-code" ||
    otpBoxes.includes(el) ||
    (words.otpName.test(`${el.name} ${el.id}`) && el.type !== "password" && !words.user.test(`${el.name} ${el.id}`)) ||
    // Labelled as one ("OTP Token", "2FA code", "Authentication code"), whatever its name.
    (["text", "tel", "number", ""].includes(el.type) &&
      words.otpLabel.test(describe(el)) &&
      !words.user.test(describe(el)));
  // A question page has no password field at all, not even a disabled one (a form waiting on its request).
  const anyPassword = inputs.some((el) => el.type === "password" && visible(el) && !isQuestion(el));

  return {
    ...args,
    kit,
    all,
    inputs,
    clickables,
    shownText,
    pageText,
    fillable,
    contextText,
    isQuestion,
    otpBoxes,
    isOtp,
    anyPassword,
  };
}
