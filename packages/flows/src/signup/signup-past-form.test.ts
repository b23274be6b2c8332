import { WATCH_TIMING } from "../page/watch-timing";
import {
  type AccountPageRead,
  type AccountSoFar,
  type PastFormFacts,
  type PastFormRead,
  readAccountPage,
  signupTimeUp,
  type SignupTimeUpRead,
  weighPastForm,
} from "./signup-past-form";

// A passwordless account's page once no message decided, a row a rule: whether the password last set is
// taken, and what comes next (the password set on the link's page, the site's mail waited for).
const ACCOUNT: AccountPageRead = {
  form: false,
  setPasswordForm: false,
  fresh: 0,
  unreadable: 0,
  status: 200,
  confirmByEmail: false,
  text: "",
};
const NO_MAIL: AccountSoFar = { passwordless: true, accountMailRead: false, linkOpened: false, passwordSets: 0 };
const LINK_OPENED: Partial<AccountSoFar> = { accountMailRead: true, linkOpened: true };

describe("readAccountPage", () => {
  it.each<[string, Partial<AccountPageRead>, Partial<AccountSoFar>, boolean, string | null]>([
    [
      "the set-password form gone, nothing said: the password is taken",
      {},
      { ...LINK_OPENED, passwordSets: 1 },
      true,
      null,
    ],
    [
      "the set-password form still shown: not taken yet",
      { form: true, setPasswordForm: true },
      { ...LINK_OPENED, passwordSets: 1 },
      false,
      null,
    ],
    ["a message may still refuse it: not taken yet", { fresh: 1 }, { ...LINK_OPENED, passwordSets: 1 }, false, null],
    ["a frame unread: not taken yet", { unreadable: 1 }, { ...LINK_OPENED, passwordSets: 1 }, false, null],
    ["an HTTP error: not taken", { status: 500 }, { ...LINK_OPENED, passwordSets: 1 }, false, null],
    ["no password set: nothing to take", {}, LINK_OPENED, false, null],
    [
      "the mail's link opened a set-password form: the password is set",
      { form: true, setPasswordForm: true },
      LINK_OPENED,
      false,
      "set-password",
    ],
    [
      "a set-password form once a password was set is not set again here",
      { form: true, setPasswordForm: true },
      { ...LINK_OPENED, passwordSets: 1 },
      false,
      null,
    ],
    [
      "a set-password form without the mail's link is the signup's own form",
      { form: true, setPasswordForm: true },
      { accountMailRead: true },
      false,
      null,
    ],
    [
      "passwordless, 'check your email': the site's mail is waited for",
      { confirmByEmail: true },
      {},
      false,
      "await-account-mail",
    ],
    [
      "passwordless, 'a password was sent' in the page's text",
      { text: "Your password has been sent to ada@example.test" },
      {},
      false,
      "await-account-mail",
    ],
    ["passwordless, a page that says nothing of a mail", { text: "Welcome" }, {}, false, null],
    ["passwordless, the signup form still shown: no mail yet", { form: true, confirmByEmail: true }, {}, false, null],
    ["the mail read already is not waited for again", { confirmByEmail: true }, { accountMailRead: true }, false, null],
    [
      "a signup with a password waits for no account mail",
      { confirmByEmail: true },
      { passwordless: false },
      false,
      null,
    ],
  ])("%s", (_name, page, so, acceptPassword, next) => {
    const read = readAccountPage({ ...ACCOUNT, ...page }, { ...NO_MAIL, ...so });
    expect(read.acceptPassword).toBe(acceptPassword);
    expect(read.next?.kind ?? null).toBe(next);
  });
});

// A page past the form, with no code or link asked: a row for every verdict, and one for every guard that
// keeps a page from passing for signed in.
const PAST: PastFormRead = {
  otpPrompt: false,
  interstitial: false,
  signedIn: true,
  successBefore: true,
  identifierOnlyShown: false,
  offersLogin: false,
  now: 10_000,
};
// The "Log in" offer first shown as long ago as three looks took, and one look's pause before this poll.
const THREE_LOOKS_AGO = PAST.now - 2 * WATCH_TIMING.lookEveryMs;
const A_PAUSE_AGO = PAST.now - WATCH_TIMING.lookEveryMs;

describe("weighPastForm", () => {
  it.each<[string, Partial<PastFormRead>, number | null, PastFormFacts, object, number | null]>([
    [
      "an interstitial question: it is answered",
      { interstitial: true },
      null,
      {},
      { kind: "answer-interstitial" },
      null,
    ],
    [
      "an interstitial beside a code prompt is not answered",
      { interstitial: true, otpPrompt: true },
      null,
      {},
      { kind: "weigh-session" },
      null,
    ],
    [
      "an interstitial answered too often is passed by",
      { interstitial: true },
      null,
      { interstitialUnanswered: true },
      { kind: "weigh-session" },
      null,
    ],
    ["the account shown: its session is weighed", {}, null, {}, { kind: "weigh-session" }, null],
    [
      "the account shown, strong evidence, on a second look: signed in",
      {},
      null,
      { evidence: "strong" },
      { kind: "signed-in" },
      null,
    ],
    [
      "strong evidence on a first look only looks signed in",
      { successBefore: false },
      null,
      { evidence: "strong" },
      { kind: "looks", success: true },
      null,
    ],
    [
      "weak evidence (cookies that rotate on their own) is no success",
      {},
      null,
      { evidence: "weak" },
      { kind: "looks", success: false },
      null,
    ],
    ["no evidence is no success", {}, null, { evidence: "none" }, { kind: "looks", success: false }, null],
    [
      "no account shown: new state alone is never weighed, never a success",
      { signedIn: false },
      null,
      {},
      { kind: "looks", success: false },
      null,
    ],
    [
      "no account shown, even with strong evidence known",
      { signedIn: false },
      null,
      { evidence: "strong" },
      { kind: "looks", success: false },
      null,
    ],
    [
      "only the identifier typed shown: no signed-in verdict",
      { identifierOnlyShown: true },
      null,
      { evidence: "strong" },
      { kind: "looks", success: true },
      null,
    ],
    [
      "a 'Log in' offer first seen: its time starts",
      { signedIn: false, offersLogin: true },
      null,
      {},
      { kind: "looks", success: false },
      PAST.now,
    ],
    [
      "a 'Log in' offer shown a look's pause: not long enough",
      { signedIn: false, offersLogin: true },
      A_PAUSE_AGO,
      {},
      { kind: "looks", success: false },
      A_PAUSE_AGO,
    ],
    [
      "a 'Log in' offer shown as long as three looks: the account is to sign in",
      { signedIn: false, offersLogin: true },
      THREE_LOOKS_AGO,
      {},
      { kind: "sign-in" },
      THREE_LOOKS_AGO,
    ],
    [
      "a 'Log in' offer beside a session that looks signed in is not timed",
      { successBefore: false, offersLogin: true },
      THREE_LOOKS_AGO,
      { evidence: "strong" },
      { kind: "looks", success: true },
      null,
    ],
    [
      "a 'Log in' offer gone: its time is over",
      { signedIn: false },
      THREE_LOOKS_AGO,
      {},
      { kind: "looks", success: false },
      null,
    ],
  ])("%s", (_name, page, loginOfferedAt, facts, next, offeredAfter) => {
    const weighed = weighPastForm({ ...PAST, ...page }, { loginOfferedAt }, facts);
    expect(weighed.next).toEqual(next);
    expect(weighed.loginOfferedAt).toBe(offeredAfter);
  });

  it("a question for the loop keeps the offer's time as it was", () => {
    const page = { ...PAST, signedIn: true, offersLogin: true };
    expect(weighPastForm(page, { loginOfferedAt: A_PAUSE_AGO }).loginOfferedAt).toBe(A_PAUSE_AGO);
  });
});

// The verdict when the clock ran out: a login to try, unless the page still asks for something.
const TIME_UP: SignupTimeUpRead = { timedOut: false, form: false, otpPrompt: false, confirmByEmail: false };

describe("signupTimeUp", () => {
  it.each<[string, Partial<SignupTimeUpRead>, boolean, object]>([
    [
      "the deadline passed",
      { timedOut: true },
      false,
      { kind: "refused", code: "timeout", message: "timed out waiting for the page after the signup" },
    ],
    [
      "the signup form still shown, without a word",
      { form: true },
      false,
      { kind: "refused", code: "login_unconfirmed", message: "the signup form is still shown, without a message" },
    ],
    [
      "the form shown after the email was confirmed: the login decides",
      { form: true },
      true,
      { kind: "login", verified: true },
    ],
    [
      "a code still asked for",
      { otpPrompt: true },
      true,
      { kind: "refused", code: "login_unconfirmed", message: "the site still asks to confirm the email" },
    ],
    [
      "'check your email' still shown",
      { confirmByEmail: true },
      false,
      { kind: "refused", code: "login_unconfirmed", message: "the site still asks to confirm the email" },
    ],
    [
      "a page past the form that signed nobody in: the new account logs in",
      {},
      false,
      { kind: "login", verified: false },
    ],
  ])("%s", (_name, page, verified, verdict) => {
    expect(signupTimeUp({ ...TIME_UP, ...page }, verified)).toEqual(verdict);
  });
});
