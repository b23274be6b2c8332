/** A one-time code the frame asks for: its field (or one box per digit), its control, or a code field beside the password. */
import type { FrameContext } from "./frame-context";
import { words } from "@authsvc/contracts/src/words/reader-words";
import { sendsStep } from "./step-controls";

export interface SecondFactor {
  otpPrompt: boolean;
  otpFields: HTMLInputElement[];
  otpSubmit: Element | null;
  codeBeside: HTMLInputElement | null;
}

export function readSecondFactor(frame: FrameContext, password: HTMLInputElement | null): SecondFactor {
  const { inputs, pageText, fillable, isOtp, otpBoxes } = frame;
  const { formOf } = frame.kit;
  const otpSingle = inputs.find((el) => fillable(el) && isOtp(el) && !otpBoxes.includes(el)) ?? null;
  const otpFields: HTMLInputElement[] = otpBoxes.length ? otpBoxes : otpSingle ? [otpSingle] : [];
  const otpPrompt =
    otpFields.length > 0 &&
    (words.otp.test(pageText) || otpBoxes.length > 0 || otpFields[0]!.autocomplete === "one-time-code");
  // A code field of the password's own form (after the password, or in it without a <form> nearby).
  const codeBeside = password
    ? (inputs.find(
        (el) =>
          fillable(el) &&
          isOtp(el) &&
          !otpBoxes.includes(el) &&
          el !== password &&
          (formOf(password)
            ? formOf(el) === formOf(password)
            : !!(password.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)),
      ) ?? null)
    : null;
  // The control that sends the code: the one that sends a step's field, of the code's form.
  const otpSubmit = otpPrompt ? sendsStep(frame, otpFields[0]!) : null;
  return { otpPrompt, otpFields, otpSubmit, codeBeside };
}
