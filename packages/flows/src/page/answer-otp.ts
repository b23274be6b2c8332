import type { Page } from "@authsvc/browser";
import type { FrameScan } from "./scan-page";
import { performStep, typeCode } from "./steps";

/**
 * Types a fresh code into the prompt and sends it (by its button, or Enter in the last box). A source that
 * gives none (null: a person answered on the page itself, through the live view) leaves the page as it is.
 */
export async function answerOtp(
  page: Page,
  prompt: FrameScan,
  source: () => Promise<string | null>,
  step: (name: string) => void,
): Promise<void> {
  const { key, reading } = prompt;
  const code = await source();
  if (code === null) {
    step("the person answered on the page");
    return;
  }
  step(reading.otp.length > 1 ? `type one-time code (${reading.otp.length} boxes)` : "type one-time code");
  if (!(await typeCode(page, key, reading.otp, code))) return;
  // Some pages send the code themselves once the last box is filled; the button may be gone by then.
  const values = { identifier: "", password: "", additionalFields: {} };
  const sent =
    reading.otpSubmit &&
    (await performStep(page, { action: "click", purpose: "next", frame: key, path: reading.otpSubmit }, values).catch(
      () => false,
    ));
  if (!sent)
    await performStep(
      page,
      { action: "enter", purpose: "next", frame: key, path: reading.otp[reading.otp.length - 1]! },
      values,
    ).catch(() => false);
  step("send one-time code");
}
