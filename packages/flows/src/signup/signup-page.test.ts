import { WATCH_TIMING } from "../page/watch-timing";
import { readSignupPage, type SignupPageRead, type SignupPageSoFar } from "./signup-page";

// What a page after the signup comes to once its messages decided nothing, a row a rule, with the state
// after the poll (the message waited on, since when the polls in a row showed a login form).
const PAGE: SignupPageRead<string> = {
  form: null,
  fresh: [],
  otpPrompt: false,
  codePrompt: null,
  confirmByEmail: false,
  passwordShown: false,
  loginPassword: null,
  signupFormsRead: true,
  status: 200,
  text: [],
  now: 10_000,
};
const SO: SignupPageSoFar = {
  codeAnswered: false,
  linkOpened: false,
  sentPassword: null,
  unsettled: null,
  loginShownAt: null,
};
const SENT = { frame: "main", path: "#password" };
const LOGIN = { frame: "main", path: "#login-password" };
const waiting = (at: number) => ({ message: "Hmm", at });
// A login form first shown one watch's pause before this poll, and one shown only just before it.
const A_PAUSE_AGO = PAGE.now - WATCH_TIMING.lookEveryMs;
const JUST_NOW = PAGE.now - 10;

it.each<[string, Partial<SignupPageRead<string>>, Partial<SignupPageSoFar>, unknown, object?]>([
  [
    "the form again with a new message: it is waited on",
    { form: { validation: null }, fresh: ["Hmm"] },
    {},
    { kind: "wait" },
    { unsettled: waiting(10_000) },
  ],
  [
    "the same message before a second passed",
    { form: { validation: null }, fresh: ["Hmm"], now: 10_999 },
    { unsettled: waiting(10_000) },
    { kind: "wait" },
    { unsettled: waiting(10_000) },
  ],
  [
    "the same message a second later: the signup's refusal",
    { form: { validation: null }, fresh: ["Hmm"], now: 11_000 },
    { unsettled: waiting(10_000) },
    { kind: "refused", code: "signup_rejected", message: "Hmm" },
  ],
  [
    "the browser kept the form from being sent",
    { form: { validation: "Please fill in this field." } },
    {},
    { kind: "refused", code: "signup_rejected", message: "the signup form was not sent: Please fill in this field." },
  ],
  ["the form again without a word", { form: { validation: null } }, {}, { kind: "wait" }],
  [
    "a code prompt: the code is answered from our inbox",
    { otpPrompt: true, codePrompt: "frame" },
    {},
    { kind: "answer-code", prompt: "frame" },
  ],
  [
    "a code prompt after the code, with a message: the code's refusal",
    { otpPrompt: true, codePrompt: "frame", fresh: ["Wrong code"] },
    { codeAnswered: true },
    { kind: "refused", code: "verification_failed", message: "the site refused the confirmation code: Wrong code" },
  ],
  [
    "a code prompt after the code, without a word",
    { otpPrompt: true, codePrompt: "frame" },
    { codeAnswered: true },
    { kind: "wait" },
  ],
  [
    "the signup form beside a code prompt after the code is no form to refuse",
    { form: { validation: null }, otpPrompt: true, fresh: ["x"] },
    { codeAnswered: true },
    { kind: "refused", code: "verification_failed", message: "the site refused the confirmation code: x" },
  ],
  ["'check your email': our inbox's link", { confirmByEmail: true }, {}, { kind: "confirm-by-link" }],
  [
    "'check your email' beside a login form is the login's",
    { confirmByEmail: true, passwordShown: true, loginPassword: LOGIN },
    {},
    { kind: "wait" },
    { loginShownAt: PAGE.now },
  ],
  [
    "the link opened on an error page that says why",
    { status: 410, text: ["Oops\nThis link has expired.\nHome"] },
    { linkOpened: true },
    {
      kind: "refused",
      code: "verification_failed",
      message: "the site refused the confirmation link: This link has expired.",
    },
  ],
  [
    "the link opened on an error page without words",
    { status: 404, text: ["Not here"] },
    { linkOpened: true },
    { kind: "refused", code: "verification_failed", message: "the site refused the confirmation link: HTTP 404" },
  ],
  [
    "a login form, once: looked at again",
    { passwordShown: true, loginPassword: LOGIN },
    { sentPassword: SENT },
    { kind: "wait" },
    { loginShownAt: PAGE.now },
  ],
  [
    "a login form on a second poll a pause later: the new account signs in",
    { passwordShown: true, loginPassword: LOGIN },
    { sentPassword: SENT, loginShownAt: A_PAUSE_AGO },
    { kind: "sign-in" },
    { loginShownAt: A_PAUSE_AGO },
  ],
  [
    "a login form on a second poll woken at once by the page drawing: looked at again",
    { passwordShown: true, loginPassword: LOGIN },
    { sentPassword: SENT, loginShownAt: JUST_NOW },
    { kind: "wait" },
    { loginShownAt: JUST_NOW },
  ],
  [
    "the signup's own password field re-rendered is no login form",
    { passwordShown: true, loginPassword: SENT },
    { sentPassword: SENT, loginShownAt: A_PAUSE_AGO },
    { kind: "wait" },
    { loginShownAt: null },
  ],
  [
    "a password field while the signup reader read no frame counts nothing",
    { passwordShown: true, loginPassword: LOGIN, signupFormsRead: false },
    { loginShownAt: A_PAUSE_AGO },
    { kind: "wait" },
    { loginShownAt: null },
  ],
  [
    "a page past it all is weighed for a session",
    {},
    { loginShownAt: A_PAUSE_AGO },
    { kind: "weigh" },
    { loginShownAt: A_PAUSE_AGO },
  ],
])("%s", (_, page, so, next, after = {}) => {
  const read = readSignupPage({ ...PAGE, ...page }, { ...SO, ...so });
  expect(read.next).toEqual(next);
  expect(read).toMatchObject(after);
});
