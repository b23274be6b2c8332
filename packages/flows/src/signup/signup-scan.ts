import type { Page } from "@authsvc/browser";
import { readFrames } from "../page/scan-page";
import { readSignupInPage, type SignupReading } from "./read-signup-form";

/** A signup form as read in one frame. */
export type SignupScan = { key: string; reading: SignupReading };

/** What every frame shows of a signup form (see readSignupInPage). */
export async function scanSignup(page: Page): Promise<SignupScan[]> {
  return readFrames(page, readSignupInPage);
}

/** The frame whose form reads most like a signup form, when one does. */
export const bestForm = (scans: SignupScan[]) =>
  scans.filter((s) => s.reading.score >= 4).sort((a, b) => b.reading.score - a.reading.score)[0] ?? null;

/** A page to choose the account's password on: a new password (and its confirmation), nothing else to type. */
export const isSetPasswordForm = (form: SignupScan) =>
  form.reading.fields.some((f) => f.role === "password") &&
  form.reading.fields.every((f) => f.role === "password" || f.role === "confirm" || f.readOnly || f.value !== "");
