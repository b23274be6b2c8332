/**
 * What one frame shows, read the way a person reads a login page: the reading's shape here, the reader
 * in in-page/ (read-frame.ts and its modules), run in the page as one bundled function.
 *
 * Elements are named by a selector path: one CSS selector per document or open shadow root on the way
 * down, so the flow can act on them now and replay them on the next login (learned flows).
 */
import type { SelectorPath } from "./in-page/kit";
import { READ_FRAME_SOURCE } from "./in-page/generated/read-frame-source";
import { bundled } from "./in-page/bundled";
import { readFrame } from "./in-page/read-frame";

export type { SelectorPath } from "./in-page/kit";

export interface FrameReading {
  /** The password field of the best login form, if one is shown. */
  password: SelectorPath | null;
  /** The username or email field that belongs with it, or the only field of a username-first step. */
  identifier: SelectorPath | null;
  /** The identifier field already holds the caller's identifier (two-step forms keep it). */
  identifierFilled: boolean;
  submit: SelectorPath | null;
  remember: SelectorPath | null;
  /** A "Log in" link or button that leads to the form (landing page, modal). */
  opener: SelectorPath | null;
  /**
   * On a page with no password or username field (a site that asks for its passkey, a code or a phone
   * prompt first): the control that leads to the password ("Use your password instead"), else to the other
   * methods ("Try another way"). See words/method-words.ts in @authsvc/contracts.
   */
  otherMethod: { path: SelectorPath; password: boolean } | null;
  /** The accept button of a cookie-consent banner that is shown. */
  consent: SelectorPath | null;
  /** The "yes" of a "Stay signed in?" / "Remember this device?" question. */
  interstitial: SelectorPath | null;
  /** A sign-out control or account menu: signs of a signed-in page. */
  signedIn: SelectorPath | null;
  /** The page shows the account's name (the username or email the login was given) as text, not in a field. */
  nameShown: boolean;
  /** The page holds a sign-out control anywhere, shown or not (in a menu that opens on hover). */
  signOutHeld: boolean;
  /** A CAPTCHA a person must answer (a checkbox or a challenge; invisible ones run by themselves when the
   * form is sent). Set by scanPage from readCaptchaInPage. */
  captcha: boolean;
  otpPrompt: boolean;
  /** The one-time-code field, or one box per digit in order. */
  otp: SelectorPath[];
  /** The control that sends the code. */
  otpSubmit: SelectorPath | null;
  /**
   * A one-time-code field in the password's own form (username, password and "OTP token" sent together,
   * or an optional "2FA code" field): filled from the request's TOTP secret with the password.
   */
  codeBeside: SelectorPath | null;
  /** The page says it sent an email or a link to confirm the sign-in. */
  confirmByEmail: boolean;
  /**
   * The page waits for the sign-in to be approved on another device ("Approve the sign-in on your phone",
   * a push to an authenticator app): only a person can, and the page goes on by itself once they did.
   */
  approvalPrompt: boolean;
  /** A security question (the account owner's own answer, asked after the password): its field and control. */
  question: { field: SelectorPath; submit: SelectorPath | null; prompt: string } | null;
  /** A chooser of the account, profile or organization to go on as: its options (a radio's label, or a control) and the control that goes on. */
  chooser: {
    prompt: string;
    options: Array<{ label: string; path: SelectorPath; radio: boolean }>;
    submit: SelectorPath | null;
  } | null;
  /**
   * A "verify it's you" step (a new device, an unusual sign-in): the field for the detail it asks (the
   * account's phone number, its recovery address) and its control, or no field when it waits for something
   * done elsewhere (a link mailed to the person). `prompt`: the words around it.
   */
  verify: { prompt: string; field: SelectorPath | null; submit: SelectorPath | null } | null;
  /**
   * A page that holds the sign-in until the site's terms are accepted: its answers (accept, decline; `accept`
   * says which is which) and the "I agree" box that goes with accepting, if any.
   */
  terms: {
    prompt: string;
    options: Array<{ label: string; path: SelectorPath; accept: boolean }>;
    agree: SelectorPath | null;
  } | null;
  /** The frame's visible text (the start of it), for refusals that are not marked up as alerts. */
  text: string;
  /** Visible messages (alerts, error texts). */
  messages: string[];
  /** The browser's own complaint about a filled login field (a username in a field that wants an email). */
  validation: string | null;
  storage: string;
  url: string;
  /** Where each `additionalFields` key goes: an input, select or textarea matched by name, id, label or placeholder. */
  extras: Record<string, SelectorPath | null>;
  /**
   * The password's form has two or more visible, empty fields the username could go in, and nothing
   * decides between them (type, autocomplete, label, name, the value's fit, additionalFields): their
   * labels and names. The username is typed nowhere then (`identifier` is null); the login stops.
   */
  ambiguous: Array<{ label: string; name: string }>;
}

/** The in-page reader as Puppeteer evaluates it: the bundle of read-frame.ts and its imports. */
export const readFrameInPage = bundled(readFrame, READ_FRAME_SOURCE);
