import { readSignupDone, type SignupDonePage } from "./signup-done";

// What a page after the signup says of the account being made, before any of its words is read as a refusal.
const MADE = "The signup was successful! You can now go to the home page and log in to the system.";
const ACTIVATE =
  "Account was successfully created. An email containing the instructions to activate your account was sent to ada@example.test.";
const PAGE: SignupDonePage = { fresh: [], text: "", before: [], form: false, otpPrompt: false, confirmByEmail: false };
const NEW = { verified: false, passwordless: false };

it.each<[string, Partial<SignupDonePage>, Partial<typeof NEW>, string[], string | null]>([
  [
    "'account made' above the form drawn again: sign in, never through that form",
    { fresh: [MADE], form: true },
    {},
    [],
    "sign-in",
  ],
  [
    "'account made' beside a refusal keeps the refusal to read",
    { fresh: [MADE, "Nope"], form: true },
    {},
    ["Nope"],
    "sign-in",
  ],
  ["'account made' in the page's new text, above the form", { text: MADE, form: true }, {}, [], "sign-in"],
  [
    "'account made' that was on the page before the submit says nothing",
    { text: MADE, before: [MADE], form: true },
    {},
    [],
    null,
  ],
  ["'account made' on a page past the form is for the rules after", { fresh: [MADE] }, {}, [], null],
  [
    "'account made' beside a code prompt: the code comes first",
    { fresh: [MADE], form: true, otpPrompt: true },
    {},
    [],
    null,
  ],
  [
    "'account made' beside 'check your email': the email comes first",
    { fresh: [MADE], form: true, confirmByEmail: true },
    {},
    [],
    null,
  ],
  ["'account made' after the confirmation", { fresh: [MADE], form: true }, { verified: true }, [], null],
  ["an activation mail above the login form: its link first", { fresh: [ACTIVATE] }, {}, [], "confirm-by-link"],
  ["an activation mail in the page's new text", { text: ACTIVATE }, {}, [], "confirm-by-link"],
  [
    "an activation mail above the signup form drawn again, that says the account was made",
    { fresh: [ACTIVATE], form: true },
    {},
    [],
    "confirm-by-link",
  ],
  [
    "an activation mail beside a code prompt: the code is answered where the page asks",
    { fresh: [ACTIVATE], otpPrompt: true },
    {},
    [],
    null,
  ],
  ["a passwordless signup's mail is not an activation link", { fresh: [ACTIVATE] }, { passwordless: true }, [], null],
  ["an activation mail after the confirmation", { fresh: [ACTIVATE] }, { verified: true }, [], null],
])("%s", (_, page, so, fresh, next) => {
  expect(readSignupDone({ ...PAGE, ...page }, { ...NEW, ...so })).toEqual({ fresh, next });
});
