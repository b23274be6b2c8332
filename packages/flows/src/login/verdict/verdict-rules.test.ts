import type { Frame } from "@authsvc/browser";
import type { LoginFailureCode } from "@authsvc/contracts";
import type { Saying } from "../../page/page-sayings";
import type { FrameReading } from "../../page/read-page";
import { type FrameScan, mergeSignals } from "../../page/scan-page";
import { WATCH_TIMING } from "../../page/watch-timing";
import { refusesFactor } from "./factor-refusal";
import type { PendingApproval } from "./outcome";
import { afterDecline, judgePoll, timeUp } from "./rules";
import {
  type Decision,
  START,
  type VerdictFacts,
  type VerdictInput,
  type VerdictMeans,
  type VerdictState,
} from "./state";
import { settle } from "./unsettled-message";

// Every verdict the login engine gives after the password went out, one row a rule, read from PageSignals
// without a browser: the page a poll read, what the watch did before it, and what the caller can answer.

const BLANK: FrameReading = {
  password: null,
  identifier: null,
  identifierFilled: false,
  submit: null,
  remember: null,
  opener: null,
  otherMethod: null,
  consent: null,
  interstitial: null,
  signedIn: null,
  nameShown: false,
  signOutHeld: false,
  captcha: false,
  otpPrompt: false,
  otp: [],
  otpSubmit: null,
  codeBeside: null,
  confirmByEmail: false,
  approvalPrompt: false,
  question: null,
  chooser: null,
  verify: null,
  terms: null,
  text: "",
  messages: [],
  validation: null,
  storage: "",
  url: "https://site.test/login",
  extras: {},
  ambiguous: [],
};

const frame = (reading: Partial<FrameReading>, key = "main"): FrameScan => ({
  frame: {} as Frame,
  key,
  reading: { ...BLANK, ...reading },
});

// The pages a poll reads.
const FORM = { password: ["#password"], identifier: ["#username"], submit: ["#login"] };
const WRONG = "Invalid Email or password.";
const LOCKED = "Your account has been locked. Contact support.";
const NEUTRAL = "Signing you in…";
const OTP = frame({ otpPrompt: true, otp: [["#code"]], text: "Enter the code from your authenticator app" });
const QUESTION = { field: ["#answer"], submit: ["#go"], prompt: "What was the name of your first pet?" };
const CHOOSER = {
  prompt: "Choose an account",
  options: [{ label: "Ada", path: ["#ada"], radio: false }],
  submit: null,
};
const VERIFY_FIELD = { prompt: "Verify it's you: enter your phone number", field: ["#phone"], submit: ["#go"] };
const TERMS = {
  prompt: "Accept our new terms to continue",
  options: [{ label: "Accept", path: ["#accept"], accept: true }],
  agree: null,
};
const CHECK_MAIL = frame({ confirmByEmail: true, text: "Check your email: we sent you a sign-in link." });
const APPROVE = frame({ approvalPrompt: true, text: "Approve the sign-in on your phone." });
const ACCOUNT = { signedIn: ["#sign-out"] };
const saying = (block: string): Saying => ({ block, news: block });

const NOTHING: VerdictMeans = {
  answerOtp: false,
  codeTries: 1,
  answerStep: false,
  awaitApproval: false,
  answerLink: false,
  confirmSession: false,
  submitted: null,
  learnedMarker: null,
};
const PERSON: Partial<VerdictMeans> = { answerOtp: true, codeTries: 3, answerStep: true, awaitApproval: true };

const pending = (answered = false, failure: unknown = null): PendingApproval => ({
  answered,
  failure,
  cancel: () => undefined,
});

interface Row {
  name: string;
  /** The frames the poll read (none: the page was navigating). */
  frames: FrameScan[];
  fresh?: string[];
  sayings?: Saying[];
  poll?: Partial<Pick<VerdictInput, "successBefore" | "status" | "codeInForm" | "now">>;
  can?: Partial<VerdictMeans>;
  state?: Partial<VerdictState>;
  facts?: VerdictFacts;
  decision: Decision;
  /** What the state holds after the poll (the fields named). */
  after?: Partial<VerdictState>;
}

const fails = (code: LoginFailureCode, message: string, codeAskedInForm?: string): Decision => ({
  kind: "verdict",
  outcome: { kind: "failure", code, message, ...(codeAskedInForm ? { codeAskedInForm } : {}) },
});
const succeeds = (marker: { frame: string; path: string[] } | null): Decision => ({
  kind: "verdict",
  outcome: { kind: "success", marker },
});

/** A poll's time in the table, and a sight first shown one watch's pause before it. */
const NOW = 1_000;
const SHOWN_A_PAUSE_AGO = NOW - WATCH_TIMING.lookEveryMs;

function judge(row: Row) {
  const input: VerdictInput = {
    scans: row.frames,
    signals: mergeSignals(row.frames),
    fresh: row.fresh ?? [],
    sayings: row.sayings ?? [],
    successBefore: false,
    status: 200,
    codeInForm: false,
    now: NOW,
    ...row.poll,
    can: { ...NOTHING, ...row.can },
  };
  return judgePoll(input, { ...START, ...row.state }, row.facts ?? {});
}

const ROWS: Row[] = [
  // Reading the page.
  {
    name: "a poll that read no frame (the page navigates) is no verdict, and learns nothing",
    frames: [],
    state: { lastPasswordShown: false },
    decision: { kind: "looks", success: false },
    after: { lastPasswordShown: false },
  },
  // Refusals the account owns, before any step.
  {
    name: "a locked account, said beside the form",
    frames: [frame(FORM)],
    fresh: [LOCKED],
    decision: fails("account_locked", LOCKED),
    after: { lastPasswordShown: true },
  },
  {
    name: "a locked account, said in plain text beside the form",
    frames: [frame(FORM)],
    sayings: [saying(LOCKED)],
    decision: fails("account_locked", LOCKED),
  },
  {
    name: "a lock is the lock even on a code prompt after the code",
    frames: [OTP],
    fresh: [LOCKED],
    state: { otpAnswered: true, codesGiven: 1 },
    can: PERSON,
    decision: fails("account_locked", LOCKED),
  },
  {
    name: "a CAPTCHA the page shows",
    frames: [frame({ ...FORM, captcha: true })],
    decision: fails("captcha_blocked", "the site asked for a CAPTCHA"),
  },
  {
    name: "a CAPTCHA asked for in words",
    frames: [frame(FORM)],
    fresh: ["Too many attempts. Please complete the CAPTCHA to continue."],
    decision: fails("captcha_blocked", "the site asked for a CAPTCHA"),
  },
  {
    name: "the form shown again with its CAPTCHA and a wrong password: the password's refusal",
    frames: [frame({ ...FORM, captcha: true })],
    fresh: [WRONG],
    decision: fails("invalid_credentials", WRONG),
  },
  // One-time codes.
  {
    name: "a code prompt without a way to answer it",
    frames: [OTP],
    decision: fails("mfa_required", "the site asked for a one-time code"),
    after: { lastPasswordShown: false },
  },
  {
    name: "a code prompt is answered",
    frames: [OTP],
    can: { answerOtp: true },
    decision: { kind: "act", action: { kind: "answer-otp", prompt: OTP } },
    after: { otpAnswered: true, codesGiven: 1 },
  },
  {
    name: "a code refused, with no try left: verification_failed in the site's words",
    frames: [OTP],
    fresh: ["That code is incorrect."],
    can: { answerOtp: true },
    state: { otpAnswered: true, codesGiven: 1 },
    decision: fails("verification_failed", "the site refused the one-time code: That code is incorrect."),
  },
  {
    name: "a code refused, with tries left (a person's): answered again, the refusal held while shown",
    frames: [OTP],
    fresh: ["That code is incorrect."],
    can: PERSON,
    state: { otpAnswered: true, codesGiven: 1 },
    decision: {
      kind: "act",
      action: { kind: "answer-otp", prompt: OTP, refusal: "That code is incorrect." },
      hold: "That code is incorrect.",
    },
    after: { codesGiven: 2 },
  },
  {
    name: "a code refused in plain text",
    frames: [OTP],
    sayings: [saying("That code didn't work. Check the code and try again.")],
    can: { answerOtp: true },
    state: { otpAnswered: true, codesGiven: 1 },
    decision: fails(
      "verification_failed",
      "the site refused the one-time code: That code didn't work. Check the code and try again.",
    ),
  },
  {
    name: "a lock said in plain text after a code keeps its code",
    frames: [OTP],
    sayings: [saying(LOCKED)],
    can: { answerOtp: true },
    state: { otpAnswered: true, codesGiven: 1 },
    decision: fails("account_locked", LOCKED),
  },
  {
    name: "a code prompt still shown after the code, without a word: the session decides (none while it asks)",
    frames: [OTP],
    can: { answerOtp: true },
    state: { otpAnswered: true, codesGiven: 1 },
    facts: { evidence: "none" },
    decision: { kind: "looks", success: false },
  },
  {
    name: "a code prompt beside the password is no code step: the form's refusal is the password's",
    frames: [frame({ ...FORM, otpPrompt: true, otp: [["#code"]] })],
    fresh: [WRONG],
    can: { answerOtp: true },
    decision: fails("invalid_credentials", WRONG),
  },
  // A person's steps.
  {
    name: "a security question without a person",
    frames: [frame({ question: QUESTION })],
    decision: fails("mfa_required", "the site asked a security question only the account's owner can answer"),
  },
  {
    name: "a security question is answered by the person",
    frames: [frame({ question: QUESTION })],
    can: PERSON,
    decision: { kind: "act", action: { kind: "answer-step", scan: frame({ question: QUESTION }), step: "question" } },
    after: { stepAnswers: 1 },
  },
  {
    name: "an answered step still shown without a word: its answer is on the way",
    frames: [frame({ question: QUESTION })],
    can: PERSON,
    state: { stepAnswers: 1 },
    decision: { kind: "again" },
  },
  {
    name: "an answer refused: asked again, the refusal held while shown",
    frames: [frame({ question: QUESTION })],
    fresh: ["That answer is not right."],
    can: PERSON,
    state: { stepAnswers: 1 },
    decision: {
      kind: "act",
      action: {
        kind: "answer-step",
        scan: frame({ question: QUESTION }),
        step: "question",
        refusal: "That answer is not right.",
      },
      hold: "That answer is not right.",
    },
    after: { stepAnswers: 2 },
  },
  {
    name: "an answer refused after three answers",
    frames: [frame({ question: QUESTION })],
    sayings: [saying("The answer you gave is incorrect.")],
    can: PERSON,
    state: { stepAnswers: 3 },
    decision: fails("verification_failed", "the site refused the answer: The answer you gave is incorrect."),
  },
  {
    name: "a chooser with a person to ask is a step",
    frames: [frame({ chooser: CHOOSER })],
    can: PERSON,
    decision: { kind: "act", action: { kind: "answer-step", scan: frame({ chooser: CHOOSER }), step: "chooser" } },
  },
  {
    name: "a chooser without a person is read as any page, its strong evidence only weak",
    frames: [frame({ chooser: CHOOSER, ...ACCOUNT })],
    poll: { successBefore: true },
    facts: { evidence: "strong" },
    decision: fails("login_unconfirmed", "the login form is gone, but nothing proves a session: nothing was checked"),
  },
  {
    name: "a chooser's second look is on a step",
    frames: [frame({ chooser: CHOOSER })],
    poll: { successBefore: true },
    can: { confirmSession: true },
    facts: { evidence: "strong" },
    decision: { kind: "second-look", onAStep: true },
  },
  {
    name: "terms to accept, even beside a username field, without a person",
    frames: [frame({ identifier: ["#username"], terms: TERMS })],
    decision: fails(
      "mfa_required",
      "the site holds the sign-in until its terms are accepted, which only the account's owner can do",
    ),
  },
  {
    name: "terms to accept are the person's",
    frames: [frame({ terms: TERMS })],
    can: PERSON,
    decision: { kind: "act", action: { kind: "answer-step", scan: frame({ terms: TERMS }), step: "consent" } },
  },
  {
    name: "a 'verify it's you' field (the page's only field) is a step, not a username-first form",
    frames: [frame({ identifier: ["#phone"], verify: VERIFY_FIELD })],
    decision: fails(
      "mfa_required",
      "the site asked to verify it's the account's owner (a new device or an unusual sign-in)",
    ),
  },
  {
    name: "a 'verify it's you' field beside another username field: the form still asks",
    frames: [frame({ identifier: ["#phone"], verify: VERIFY_FIELD }), frame({ identifier: ["#user"] }, "frame")],
    fresh: [WRONG],
    decision: fails("invalid_credentials", WRONG),
  },
  // Email confirmation.
  {
    name: "'check your email' counts from the second poll that shows it",
    frames: [CHECK_MAIL],
    can: { answerLink: true },
    decision: { kind: "wait" },
    after: { confirmShownAt: NOW },
  },
  {
    name: "'check your email' on a second look woken at once by the page drawing is not settled yet",
    frames: [CHECK_MAIL],
    can: { answerLink: true },
    state: { confirmShownAt: NOW - 10 },
    decision: { kind: "wait" },
    after: { confirmShownAt: NOW - 10 },
  },
  {
    name: "'check your email' not yet settled is no mfa_required, even without a mailbox",
    frames: [CHECK_MAIL],
    state: { confirmShownAt: NOW - 10 },
    decision: { kind: "wait" },
  },
  {
    name: "'check your email', settled: our mailbox's link is opened",
    frames: [CHECK_MAIL],
    can: { answerLink: true },
    state: { confirmShownAt: SHOWN_A_PAUSE_AGO },
    decision: { kind: "act", action: { kind: "open-link" } },
    after: { confirmShownAt: SHOWN_A_PAUSE_AGO, linkOpened: true },
  },
  {
    name: "'check your email', settled, without a mailbox or a person",
    frames: [CHECK_MAIL],
    state: { confirmShownAt: SHOWN_A_PAUSE_AGO },
    decision: fails("mfa_required", "the site asked to confirm the sign-in by email"),
  },
  {
    name: "'check your email', settled, without a mailbox: a person is asked to verify",
    frames: [CHECK_MAIL],
    can: { awaitApproval: true },
    state: { confirmShownAt: SHOWN_A_PAUSE_AGO },
    decision: {
      kind: "await-approval",
      then: { ask: "Check your email: we sent you a sign-in link.", reason: "verification" },
    },
    after: { approvalsAsked: 1, confirmShownAt: SHOWN_A_PAUSE_AGO },
  },
  {
    name: "'check your email' beside a code field is a code prompt, never a link",
    frames: [frame({ ...OTP.reading, confirmByEmail: true })],
    can: { answerOtp: true, answerLink: true },
    state: { confirmShownAt: SHOWN_A_PAUSE_AGO },
    decision: { kind: "act", action: { kind: "answer-otp", prompt: frame({ ...OTP.reading, confirmByEmail: true }) } },
    after: { confirmShownAt: SHOWN_A_PAUSE_AGO },
  },
  {
    name: "a code step keeps when 'check your email' was first shown",
    frames: [frame({ question: QUESTION })],
    can: PERSON,
    state: { confirmShownAt: SHOWN_A_PAUSE_AGO },
    decision: { kind: "act", action: { kind: "answer-step", scan: frame({ question: QUESTION }), step: "question" } },
    after: { confirmShownAt: SHOWN_A_PAUSE_AGO },
  },
  {
    name: "a page after the link opened still saying 'check your email' is no second link",
    frames: [CHECK_MAIL],
    can: { answerLink: true },
    state: { confirmShownAt: SHOWN_A_PAUSE_AGO, linkOpened: true },
    facts: { evidence: "none" },
    decision: { kind: "looks", success: false },
    after: { confirmShownAt: SHOWN_A_PAUSE_AGO },
  },
  // A person's approval.
  {
    name: "an approval on another device without a person",
    frames: [APPROVE],
    decision: fails(
      "mfa_required",
      "the site asked to approve the sign-in on another device (a push to a phone or an app)",
    ),
  },
  {
    name: "an approval: the person is asked with the page's words",
    frames: [APPROVE],
    can: PERSON,
    decision: { kind: "await-approval", then: { ask: "Approve the sign-in on your phone.", reason: "approval" } },
    after: { approvalsAsked: 1 },
  },
  {
    name: "an approval asked and not yet answered: looked at again",
    frames: [APPROVE],
    can: PERSON,
    state: { approval: pending(), approvalsAsked: 1 },
    decision: { kind: "await-approval", then: "look" },
  },
  {
    name: "an approval answered ('look again'): the page is loaded again",
    frames: [APPROVE],
    can: PERSON,
    state: { approval: pending(true), approvalsAsked: 1 },
    decision: { kind: "await-approval", then: "reload" },
    after: { approval: null },
  },
  {
    name: "an approval the person did not give in time ends the login with its error",
    frames: [APPROVE],
    can: PERSON,
    state: { approval: pending(false, "no answer"), approvalsAsked: 1 },
    decision: { kind: "raise", error: "no answer" },
  },
  {
    name: "an approval still asked for after three answers",
    frames: [APPROVE],
    can: PERSON,
    state: { approvalsAsked: 3 },
    decision: fails("mfa_required", "the site still asked to approve the sign-in after 3 answers"),
  },
  {
    name: "'verify it's you' with nothing to type, without a person",
    frames: [frame({ verify: { prompt: "Verify it's you from the email we sent", field: null, submit: null } })],
    decision: fails("mfa_required", "the site asked to verify it's the account's owner"),
  },
  {
    name: "'verify it's you' with nothing to type: the person is asked with its words",
    frames: [frame({ verify: { prompt: "Verify it's you from the email we sent", field: null, submit: null } })],
    can: PERSON,
    decision: {
      kind: "await-approval",
      then: { ask: "Verify it's you from the email we sent", reason: "verification" },
    },
  },
  {
    name: "'verify it's you' with nothing to type, once our link was opened, is no hand-off: the page is judged",
    frames: [frame({ verify: { prompt: "Verify it's you from the email we sent", field: null, submit: null } })],
    can: PERSON,
    state: { linkOpened: true },
    decision: { kind: "weigh-session" },
  },
  {
    name: "the page went on while an approval was asked: the question is withdrawn first",
    frames: [frame(ACCOUNT)],
    can: PERSON,
    state: { approval: pending(), approvalsAsked: 1 },
    decision: { kind: "withdraw-approval" },
  },
  {
    name: "the page went on, the approval withdrawn: the page is judged",
    frames: [frame(ACCOUNT)],
    can: PERSON,
    state: { approval: pending(), approvalsAsked: 1 },
    facts: { approvalWithdrawn: true, evidence: "strong" },
    decision: { kind: "looks", success: true },
    after: { approval: null },
  },
  // The form shown again.
  {
    name: "a wrong password beside the form",
    frames: [frame(FORM)],
    fresh: [WRONG],
    decision: fails("invalid_credentials", WRONG),
  },
  {
    name: "a wrong password said in plain text beside the form",
    frames: [frame(FORM)],
    sayings: [{ block: `Sign in\n${WRONG}`, news: WRONG }],
    decision: fails("invalid_credentials", `Sign in\n${WRONG}`),
  },
  {
    name: "an unknown username beside a username-first form",
    frames: [frame({ identifier: ["#username"] })],
    fresh: ["We couldn't find an account with that email address."],
    decision: fails("invalid_credentials", "We couldn't find an account with that email address."),
  },
  {
    name: "the form again after a code or a link: a refusal of that, not of the password",
    frames: [frame(FORM)],
    fresh: [WRONG],
    state: { linkOpened: true },
    decision: fails("verification_failed", WRONG),
  },
  {
    name: "an expired link, the form shown again",
    frames: [frame(FORM)],
    fresh: ["This link has expired."],
    state: { linkOpened: true },
    decision: fails("verification_failed", "This link has expired."),
  },
  {
    name: "a lock after a code or a link stays a lock, even in words of expiry",
    frames: [frame(FORM)],
    fresh: ["Your account has been locked: too many expired codes."],
    state: { otpAnswered: true, codesGiven: 1 },
    decision: fails("account_locked", "Your account has been locked: too many expired codes."),
  },
  {
    name: "the site's own fault beside the form is no refusal of the credentials",
    frames: [frame(FORM)],
    fresh: ["Something went wrong. Please try again."],
    decision: fails("login_unconfirmed", "Something went wrong. Please try again."),
  },
  {
    name: "a refusal beside the site's fault is the refusal",
    frames: [frame(FORM)],
    fresh: ["Something went wrong. Please try again.", WRONG],
    decision: fails("invalid_credentials", WRONG),
  },
  {
    name: "a risk check's wall beside the form keeps its code",
    frames: [frame(FORM)],
    fresh: ["Suspicious login attempt blocked."],
    decision: fails("login_blocked", "Suspicious login attempt blocked."),
  },
  {
    name: "'the password field is empty': the form lost a field, the credentials were not refused",
    frames: [frame(FORM)],
    fresh: ["The password field is empty."],
    decision: fails(
      "login_unconfirmed",
      "the site says its form came with a field empty, though every field was filled and checked before it was sent: The password field is empty.",
    ),
  },
  {
    name: "a code asked for with the password: mfa_required, the words kept for the next login",
    frames: [frame(FORM)],
    fresh: ["Please enter your OTP token."],
    decision: fails(
      "mfa_required",
      "the site asks for a second factor's code with the password: Please enter your OTP token.",
      "Please enter your OTP token.",
    ),
  },
  {
    name: "a code asked for again after one was typed into the form: the code's refusal",
    frames: [frame(FORM)],
    fresh: ["Please enter your OTP token."],
    poll: { codeInForm: true },
    decision: fails("verification_failed", "the site refused the one-time code: Please enter your OTP token."),
  },
  {
    name: "a code typed into the form, refused in words that name it",
    frames: [frame(FORM)],
    fresh: ["The code you entered is incorrect."],
    poll: { codeInForm: true },
    decision: fails("verification_failed", "the site refused the one-time code: The code you entered is incorrect."),
  },
  {
    name: "a code typed into the form, and a refusal that names no code: the password's",
    frames: [frame(FORM)],
    fresh: [WRONG],
    poll: { codeInForm: true },
    decision: fails("invalid_credentials", WRONG),
  },
  {
    name: "without a code typed into the form, the same words refuse the password",
    frames: [frame(FORM)],
    fresh: ["The code you entered is incorrect."],
    decision: fails("invalid_credentials", "The code you entered is incorrect."),
  },
  {
    name: "a message without refusal words beside the form is waited on",
    frames: [frame(FORM)],
    fresh: [NEUTRAL],
    decision: { kind: "again" },
    after: { unsettled: { message: NEUTRAL, at: 1_000 } },
  },
  {
    name: "a message without refusal words, still shown a moment later (a look the page woke at once): waited on",
    frames: [frame(FORM)],
    fresh: [NEUTRAL],
    state: { unsettled: { message: NEUTRAL, at: NOW - 300 } },
    decision: { kind: "again" },
    after: { unsettled: { message: NEUTRAL, at: NOW - 300 } },
  },
  {
    name: "a message without refusal words, still shown a second after it came: the site's refusal",
    frames: [frame(FORM)],
    fresh: [NEUTRAL],
    state: { unsettled: { message: NEUTRAL, at: NOW - 1_000 } },
    decision: fails("invalid_credentials", NEUTRAL),
  },
  {
    name: "another message without refusal words is waited on afresh",
    frames: [frame(FORM)],
    fresh: ["Checking your details"],
    state: { unsettled: { message: NEUTRAL, at: 1_000 } },
    decision: { kind: "again" },
    after: { unsettled: { message: "Checking your details", at: 1_000 } },
  },
  {
    name: "a settled message after a step: the step's refusal",
    frames: [frame(FORM)],
    fresh: [NEUTRAL],
    state: { stepAnswers: 1, unsettled: { message: NEUTRAL, at: NOW - 1_000 } },
    decision: fails("verification_failed", NEUTRAL),
  },
  {
    name: "the browser kept the form from being sent",
    frames: [frame({ ...FORM, validation: "Please include an '@' in the email address." })],
    decision: fails(
      "invalid_credentials",
      "the login form does not accept the username: Please include an '@' in the email address.",
    ),
  },
  {
    name: "a form still shown is never a success, whatever the session state",
    frames: [frame({ ...FORM, ...ACCOUNT })],
    poll: { successBefore: true },
    facts: { evidence: "strong" },
    decision: { kind: "looks", success: false },
    after: { lastPasswordShown: true },
  },
  // Pages past the form.
  {
    name: "a formless page that refuses",
    frames: [frame({})],
    fresh: ["Too many failed login attempts. Please try again in 15 minutes."],
    decision: fails("account_locked", "Too many failed login attempts. Please try again in 15 minutes."),
  },
  {
    name: "a formless page walled off by a risk check",
    frames: [frame({})],
    fresh: ["Suspicious login attempt blocked."],
    decision: fails("login_blocked", "Suspicious login attempt blocked."),
  },
  {
    name: "a risk notice on a page that shows the account walls nothing off",
    frames: [frame(ACCOUNT)],
    fresh: ["We detected unusual activity. For your security, this sign-in was blocked."],
    facts: { evidence: "strong" },
    decision: { kind: "looks", success: true },
  },
  {
    name: "a formless page that says in plain text that the login failed",
    frames: [frame({})],
    sayings: [saying(WRONG)],
    decision: fails("invalid_credentials", WRONG),
  },
  {
    name: "the same words on a page that shows the account are no refusal",
    frames: [frame(ACCOUNT)],
    sayings: [saying(WRONG)],
    facts: { evidence: "strong" },
    decision: { kind: "looks", success: true },
  },
  {
    name: "the site's error page after the form",
    frames: [frame({})],
    poll: { status: 502 },
    decision: fails("target_unreachable", "the site answered the login with HTTP 502"),
  },
  {
    name: "an interstitial question is answered",
    frames: [frame({ interstitial: ["#yes"] })],
    decision: { kind: "answer-interstitial" },
  },
  {
    name: "an interstitial whose 'yes' sent the password is never clicked again",
    frames: [frame({ interstitial: ["#login"] })],
    can: { submitted: { frame: "main", path: ["#login"] } },
    decision: { kind: "looks", success: false },
  },
  {
    name: "an interstitial that could not be answered again is no success",
    frames: [frame({ interstitial: ["#yes"], ...ACCOUNT })],
    poll: { successBefore: true },
    facts: { interstitialUnanswered: true },
    decision: { kind: "looks", success: false },
  },
  // Success.
  {
    name: "a page past the form is weighed for a session",
    frames: [frame(ACCOUNT)],
    decision: { kind: "weigh-session" },
    after: { lastPasswordShown: false },
  },
  {
    name: "no new session state is no success",
    frames: [frame(ACCOUNT)],
    poll: { successBefore: true },
    facts: { evidence: "none" },
    decision: { kind: "looks", success: false },
  },
  {
    name: "a session seen once looks like success, to be seen again",
    frames: [frame(ACCOUNT)],
    facts: { evidence: "strong" },
    decision: { kind: "looks", success: true },
  },
  {
    name: "a session seen on two polls in a row is the success, with the page's marker",
    frames: [frame(ACCOUNT)],
    poll: { successBefore: true },
    facts: { evidence: "strong" },
    decision: succeeds({ frame: "main", path: ["#sign-out"] }),
  },
  {
    name: "the marker this site showed before counts on the first poll",
    frames: [frame(ACCOUNT)],
    can: { learnedMarker: { frame: "main", path: ["#sign-out"] } },
    facts: { evidence: "strong" },
    decision: succeeds({ frame: "main", path: ["#sign-out"] }),
  },
  {
    name: "weak evidence asks for the second look",
    frames: [frame({})],
    poll: { successBefore: true },
    can: { confirmSession: true },
    facts: { evidence: "weak" },
    decision: { kind: "second-look", onAStep: false },
  },
  {
    name: "weak evidence the second look proves is the success",
    frames: [frame({})],
    poll: { successBefore: true },
    can: { confirmSession: true },
    facts: { evidence: "weak", secondLook: { signedIn: true, why: "the login page shows the account" } },
    decision: succeeds(null),
  },
  {
    name: "weak evidence the second look does not prove: login_unconfirmed, never success",
    frames: [frame({})],
    poll: { successBefore: true },
    can: { confirmSession: true },
    facts: { evidence: "weak", secondLook: { signedIn: null, why: "the login page shows its form" } },
    decision: fails(
      "login_unconfirmed",
      "the login form is gone, but nothing proves a session: the login page shows its form",
    ),
  },
  {
    name: "weak evidence without a second look to take",
    frames: [frame({})],
    poll: { successBefore: true },
    facts: { evidence: "weak" },
    decision: fails("login_unconfirmed", "the login form is gone, but nothing proves a session: nothing was checked"),
  },
];

describe("the login verdict rules", () => {
  it.each(ROWS)("$name", (row) => {
    const { decision, state } = judge(row);
    expect(decision).toEqual(row.decision);
    if (row.after) expect(state).toMatchObject(row.after);
  });

  it("leave the state as it was when they ask the loop a question", () => {
    const before = { ...START, confirmShownAt: SHOWN_A_PAUSE_AGO };
    const { state } = judgePoll(
      {
        scans: [frame(ACCOUNT)],
        signals: mergeSignals([frame(ACCOUNT)]),
        fresh: [],
        sayings: [],
        successBefore: false,
        status: 200,
        codeInForm: false,
        now: 0,
        can: NOTHING,
      },
      before,
    );
    expect(state).toEqual({ ...before, lastPasswordShown: false, confirmShownAt: null });
    expect(before.confirmShownAt).toBe(SHOWN_A_PAUSE_AGO);
  });
});

describe("the verdict when the clock ran out", () => {
  it.each<[string, Partial<VerdictState>, number, boolean, LoginFailureCode, string]>([
    ["the deadline", {}, 200, true, "timeout", "timed out waiting for the page after submit"],
    ["an HTTP error", {}, 403, false, "login_unconfirmed", "the site answered the login with HTTP 403"],
    [
      "the form still shown",
      {},
      200,
      false,
      "login_unconfirmed",
      "the login form is still shown, without an error message",
    ],
    [
      "the form gone",
      { lastPasswordShown: false },
      200,
      false,
      "login_unconfirmed",
      "the login form is gone but the site set no new session state",
    ],
  ])("%s", (_, state, status, timedOut, code, message) => {
    expect(timeUp({ ...START, ...state }, status, timedOut)).toEqual({ kind: "failure", code, message });
  });

  it("says declined terms that kept the account out as the person's decision, but not a lock", () => {
    const declined = { ...START, declined: true };
    const refused = { kind: "failure" as const, code: "invalid_credentials" as const, message: WRONG };
    expect(afterDecline(refused, declined)).toEqual({
      kind: "failure",
      code: "consent_denied",
      message: `the site's terms were declined, and it did not sign in: ${WRONG}`,
    });
    expect(afterDecline({ ...refused, code: "account_locked" }, declined)).toEqual({
      ...refused,
      code: "account_locked",
    });
    expect(afterDecline(refused, START)).toBe(refused);
    expect(afterDecline({ kind: "success", marker: null }, declined)).toEqual({ kind: "success", marker: null });
  });
});

describe("what login and signup read alike", () => {
  it.each([
    ["a first message", null, "Checking…", 5_000, 0, false, 5_000],
    [
      "the same message on the next poll (login)",
      { message: "Checking…", at: 5_000 },
      "Checking…",
      5_000,
      0,
      true,
      5_000,
    ],
    [
      "the same message before its wait (signup)",
      { message: "Checking…", at: 5_000 },
      "Checking…",
      5_999,
      1000,
      false,
      5_000,
    ],
    [
      "the same message after its wait (signup)",
      { message: "Checking…", at: 5_000 },
      "Checking…",
      6_000,
      1000,
      true,
      5_000,
    ],
    ["another message", { message: "Checking…", at: 5_000 }, "Nope", 9_000, 1000, false, 9_000],
  ])("settles %s", (_, last, message, now, settleMs, settled, at) => {
    expect(settle(last, message, now, settleMs)).toEqual({ settled, unsettled: { message, at } });
  });

  it.each([
    ["Invalid Email or password.", true],
    ["This link has expired.", true],
    ["That code has already been used.", true],
    ["The link expires in 24 hours.", false],
    ["Enter the code we sent you.", false],
  ])("reads %j after a code or link as its refusal: %s", (message, refused) => {
    expect(refusesFactor(message)).toBe(refused);
  });
});
