import type { LoginFailureCode } from "@authsvc/contracts";
import { readSignupMessage, type SignupPageShows, type SignupSoFar } from "./signup-message";

// What one message of the site means after a signup went out, a row a rule: the signup's refusal, what is
// done about it, or nothing.
const FORM: SignupPageShows = { form: true, setPasswordForm: false, signedIn: false };
const PAST: SignupPageShows = { form: false, setPasswordForm: false, signedIn: false };
const SET_PASSWORD: SignupPageShows = { form: true, setPasswordForm: true, signedIn: false };
const START: SignupSoFar = {
  codeAnswered: false,
  linkOpened: false,
  accountMailRead: false,
  passwordSets: 0,
  usernameVariants: 0,
  passwordRetries: 0,
  passwordGiven: false,
  passwordGenerated: true,
  hasUsername: true,
};
const refused = (code: LoginFailureCode, message: string) => ({ kind: "refused", code, message });

const TAKEN = "That username is already taken. Please choose another.";
const EXISTS = "An account with this email address already exists.";
const RULES = "Your password is too short.";

it.each<[string, string, SignupPageShows, Partial<SignupSoFar>, unknown]>([
  ["a taken username: a variant is tried", TAKEN, FORM, {}, { kind: "username-variant" }],
  ["a taken username after three variants", TAKEN, FORM, { usernameVariants: 3 }, refused("signup_rejected", TAKEN)],
  [
    "a taken username where the form asks for none",
    TAKEN,
    FORM,
    { hasUsername: false },
    refused("signup_rejected", TAKEN),
  ],
  ["a known email", EXISTS, FORM, {}, refused("account_exists", EXISTS)],
  ["a known email's words on a page past the form (a welcome) are no refusal", EXISTS, PAST, {}, null],
  ["a generated password refused: one is made to the site's rules", RULES, FORM, {}, { kind: "regenerate-password" }],
  [
    "a generated password refused twice already",
    RULES,
    FORM,
    { passwordRetries: 2 },
    refused("signup_rejected", RULES),
  ],
  ["the caller's password refused", RULES, FORM, { passwordGenerated: false }, refused("signup_rejected", RULES)],
  [
    "a refusal in login words beside the form",
    "Invalid Email or password.",
    FORM,
    {},
    refused("signup_rejected", "Invalid Email or password."),
  ],
  ["a message without refusal words beside the form is for the settle rule", "Signing you up", FORM, {}, null],
  [
    "a page past the form, without the account, that says no",
    "That invitation code is not valid.",
    PAST,
    {},
    refused("signup_rejected", "That invitation code is not valid."),
  ],
  [
    "the same words on a page that shows the account",
    "That invitation code is not valid.",
    { ...PAST, signedIn: true },
    {},
    null,
  ],
  [
    "a confirmation link refused",
    "This link has expired.",
    PAST,
    { linkOpened: true },
    refused("verification_failed", "the site refused the confirmation link: This link has expired."),
  ],
  [
    "a confirmation code refused",
    "The code you entered is incorrect.",
    FORM,
    { codeAnswered: true },
    refused("verification_failed", "the site refused the confirmation code: The code you entered is incorrect."),
  ],
  [
    "a set-password link refused as invalid",
    "Invalid request.",
    SET_PASSWORD,
    { linkOpened: true, accountMailRead: true },
    refused("verification_failed", "the site refused the set-password link: Invalid request."),
  ],
  ["after a code or link, the signup's own refusals are not read", TAKEN, FORM, { linkOpened: true }, null],
  [
    "a new password refused on the set-password page: made again to its words",
    RULES,
    SET_PASSWORD,
    { linkOpened: true, accountMailRead: true, passwordSets: 1 },
    { kind: "set-password-again" },
  ],
  [
    "a new password refused after two new ones",
    RULES,
    SET_PASSWORD,
    { linkOpened: true, accountMailRead: true, passwordSets: 3 },
    refused("verification_failed", `the site refused the new password: ${RULES}`),
  ],
  [
    "the caller's new password refused",
    RULES,
    SET_PASSWORD,
    { linkOpened: true, accountMailRead: true, passwordSets: 1, passwordGiven: true },
    refused("verification_failed", `the site refused the new password: ${RULES}`),
  ],
  [
    "a message once the set-password page is gone",
    RULES,
    PAST,
    { linkOpened: true, accountMailRead: true, passwordSets: 1 },
    null,
  ],
])("%s", (_, message, page, so, verdict) => {
  expect(readSignupMessage(message, page, { ...START, ...so })).toEqual(verdict);
});
