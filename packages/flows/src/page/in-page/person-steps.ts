/**
 * The steps a person answers on the way in, after the password: "Stay signed in?", a security question,
 * "Verify it's you", terms to accept (the chooser of an account is chooser.ts). Each is read only when the
 * frame asks nothing before it (a password, a code).
 */
import type { FrameReading } from "../read-page";
import type { FrameContext } from "./frame-context";
import { words } from "@authsvc/contracts/src/words/reader-words";
import { headed, saying, sendsStep, shownLabel, wordsAround } from "./step-controls";

/** The "yes" of a "Stay signed in?" / "Remember this device?" question. */
export function readInterstitial(frame: FrameContext): Element | null {
  const { clickables, anyPassword, pageText } = frame;
  const { visible, controlText, best } = frame.kit;
  return !anyPassword && words.interstitial.test(pageText)
    ? best(
        clickables.filter((el) => visible(el)),
        (el) => (words.yes.test(controlText(el)) ? 2 : 0),
        1,
      )
    : null;
}

/** A security question: its field (null when the frame asks none) and the reading of it. */
export function readQuestion(
  frame: FrameContext,
  shown: { password: Element | null; otpPrompt: boolean; signedIn: Element | null },
): { questionField: HTMLInputElement | null; question: FrameReading["question"] } {
  const { inputs, fillable, isQuestion, contextText } = frame;
  const { password, otpPrompt, signedIn } = shown;
  const { text, formOf, pathOf } = frame.kit;
  // A signed-in page's "change your security question" form is no step of the sign-in.
  const questionField =
    !password && !otpPrompt && !signedIn ? (inputs.find((el) => fillable(el) && isQuestion(el)) ?? null) : null;
  const question = questionField
    ? {
        field: pathOf(questionField)!,
        submit: pathOf(sendsStep(frame, questionField)),
        prompt: (formOf(questionField) ? text(formOf(questionField)!) : contextText(questionField)).slice(0, 600),
      }
    : null;
  return { questionField, question };
}

export function readVerify(
  frame: FrameContext,
  shown: {
    otpPrompt: boolean;
    questionField: Element | null;
    chooser: FrameReading["chooser"];
    signedIn: Element | null;
  },
): FrameReading["verify"] {
  const { inputs, anyPassword, pageText, stepWords, fillable, isOtp } = frame;
  const { otpPrompt, questionField, chooser, signedIn } = shown;
  const { pathOf } = frame.kit;
  // "Verify it's you": the detail it asks for goes in its one text field; without one, it waits for the person elsewhere.
  let verify: FrameReading["verify"] = null;
  const verifyWords = new RegExp(stepWords.verify, "i");
  if (!anyPassword && !otpPrompt && !questionField && !chooser && !signedIn && verifyWords.test(pageText)) {
    const field =
      inputs.find(
        (el) =>
          fillable(el) &&
          ["text", "email", "tel", "number", ""].includes(el.type) &&
          !isOtp(el) &&
          el.getAttribute("role") !== "searchbox",
      ) ?? null;
    const heading = saying(frame, verifyWords);
    verify = {
      prompt: (field ? wordsAround(frame, field, verifyWords) : heading ? headed(frame, heading) : pageText).slice(
        0,
        600,
      ),
      field: pathOf(field),
      submit: field ? pathOf(sendsStep(frame, field)) : null,
    };
  }
  return verify;
}

export function readTerms(
  frame: FrameContext,
  shown: { otpPrompt: boolean; questionField: Element | null },
): FrameReading["terms"] {
  const { inputs, clickables, anyPassword, pageText, stepWords, signOut } = frame;
  const { otpPrompt, questionField } = shown;
  const { visible, formOf, pathOf } = frame.kit;
  // Terms to accept before the sign-in goes on: the page's accept and decline controls. A page that shows the
  // account (a sign-out control) may hold the sign-in this way too: its session leads only to this page.
  let terms: FrameReading["terms"] = null;
  const termsWords = new RegExp(stepWords.terms, "i");
  if (!anyPassword && !otpPrompt && !questionField && termsWords.test(pageText)) {
    const acceptWords =
      /^(i )?(accept|agree|continue)\b|^(akzeptieren|zustimmen|einverstanden|weiter|accepter|j.accepte|continuer|aceptar|acepto|continuar|aceitar|aceito|accetta|accetto|continua|accepteren|akkoord|doorgaan)/i;
    const declineWords = new RegExp(
      `^(decline|reject|cancel|no,? thanks|not now|ablehnen|abbrechen|refuser|annuler|rechazar|cancelar|recusar|rifiuta|annulla|weigeren|annuleren)|^(${signOut.labels})`,
      "i",
    );
    const answers = clickables.filter(
      (el) =>
        visible(el) &&
        shownLabel(frame, el).length > 0 &&
        shownLabel(frame, el).length <= 60 &&
        !/cookie/i.test(shownLabel(frame, el)) &&
        (acceptWords.test(shownLabel(frame, el)) || declineWords.test(shownLabel(frame, el))),
    );
    const options = answers.map((el) => ({
      label: shownLabel(frame, el).slice(0, 120),
      path: pathOf(el)!,
      accept: acceptWords.test(shownLabel(frame, el)),
    }));
    const accepting = answers.find((el) => acceptWords.test(shownLabel(frame, el)));
    if (accepting && new Set(options.map((o) => o.label)).size === options.length) {
      const form = formOf(accepting);
      const box = inputs.find(
        (el) =>
          el.type === "checkbox" &&
          !el.disabled &&
          !el.checked &&
          (!form || form.contains(el)) &&
          (visible(el) || [...(el.labels ?? [])].some(visible)),
      );
      const boxLabel = box && !visible(box) ? [...(box.labels ?? [])].find(visible) : undefined;
      const heading = saying(frame, termsWords);
      terms = {
        prompt: (heading ? headed(frame, heading) : pageText).slice(0, 600),
        options,
        agree: pathOf(box && visible(box) ? box : (boxLabel ?? null)),
      };
    }
  }
  return terms;
}
