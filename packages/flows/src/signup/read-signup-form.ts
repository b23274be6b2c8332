/**
 * What one frame shows of a signup form, read the way a person tells "create an account" from "log in".
 * Like read-page.ts it runs inside the page, bundled with its imports (see page/in-page/bundle.ts).
 */
import { bundled } from "../page/in-page/bundled";
import { READ_SIGNUP_SOURCE } from "../page/in-page/generated/read-signup-source";
import type { SelectorPath } from "../page/in-page/kit";
import { readSignup } from "../page/in-page/read-signup";

export type SignupRole =
  "email" | "confirmEmail" | "username" | "password" | "confirm" | "firstName" | "lastName" | "fullName" | "invite";

export interface SignupField {
  role: SignupRole;
  path: SelectorPath;
  /** What the field holds now (empty for password fields): a prefilled, read-only email is taken as it is. */
  value: string;
  readOnly: boolean;
  required: boolean;
}

export interface SignupReading {
  /** How much the best form on the frame looks like a signup form (0: none; >= 4: a signup form). */
  score: number;
  fields: SignupField[];
  /** Boxes a person ticks to sign up: required ones and terms or privacy consents (never newsletters). */
  consents: SelectorPath[];
  /** Required, empty fields of the form that no role above names: `additionalFields` must fill them. */
  unfilled: Array<{ label: string; path: SelectorPath }>;
  submit: SelectorPath | null;
  /** A "Sign up" / "Create account" link or button that leads to the form (landing or login page). */
  opener: SelectorPath | null;
  /** The absolute URL of the page's "Log in" link, where the new account signs in next time. */
  loginLink: string | null;
  /** What the page says about the password: the attributes and the words near the field. */
  passwordFacts: {
    passwordrules: string | null;
    minLength: number | null;
    maxLength: number | null;
    pattern: string | null;
    hints: string[];
  } | null;
  /** The browser's own complaint about a filled field, in our words (it never quotes the value). */
  validation: string | null;
}

/** What one frame shows of a signup form (see in-page/read-signup.ts), as Puppeteer evaluates it. */
export const readSignupInPage = bundled(readSignup, READ_SIGNUP_SOURCE);
