import { promptOf } from "../handoff";
import type { Page } from "@authsvc/browser";
import type { LoginFailureCode } from "@authsvc/contracts";
import type { Deadline } from "../deadline";
import { AfterSubmit, type AfterSubmitOptions, type Poll, type PollResult } from "../page/after-submit";
import { refusalSaid } from "../page/page-sayings";
import type { SelectorPath } from "../page/read-page";
import { asksForCode, EXPIRED, namesEmptyField, refusalCode, siteFault } from "../page/refusal-words";
import { type FrameScan, findFrame, resolveElement } from "../page/scan-page";
import type { SessionSnapshot } from "../page/session-snapshot";
import type { SecondLookAnswer } from "../page/session-evidence";

/** Where the signed-in page showed its sign-out control or account menu; learned flows keep it. */
export interface SignedInMarker {
  frame: string;
  path: SelectorPath;
}

export type Outcome =
  | { kind: "success"; marker: SignedInMarker | null }
  | { kind: "failure"; code: LoginFailureCode; message: string; codeAskedInForm?: string };

/** A person's approval being waited for: answered ("look again"), failed (no answer in time), or withdrawn. */
export interface PendingApproval {
  readonly answered: boolean;
  readonly failure: unknown;
  /** The page went on without the answer: the question is withdrawn. */
  cancel(): void;
}

/**
 * A step after the password only the account's person can take: a security question, a chooser, a "verify
 * it's you" field (the account's phone number, its recovery address), or the site's terms to accept.
 */
export type PersonStep = "question" | "chooser" | "verification" | "consent";

/** What a step the person answered came to: "declined" when they turned down the site's terms. */
export type StepAnswered = void | "declined";

// How many answers one person step gets in all (a refused one is asked again).
const STEP_TRIES = 3;

// How often a page that waits for an approval is looked at again, and how many "look again" it gets.
const APPROVAL_LOOK_MS = 1000;
const APPROVAL_TRIES = 3;

export interface ClassifyOptions {
  identifier: string;
  /** The control that sent the password: never clicked again, even when it reads like "Continue". */
  submitted: SignedInMarker | null;
  /** From a learned flow: the element this site's signed-in page showed the last time. */
  learnedMarker?: SignedInMarker | null;
  /** HTTP status of the last document the main frame loaded since the submit (0: none yet). */
  documentStatus?: () => number;
  /** Whether the page went on from the login page (a redirect, a client-side route): evidence of a session. */
  movedAway?: () => boolean;
  /** Whether the page sent any of these stored values back to its site since the submit (PageWatch.sentBack). */
  sentBack?: (tokens: string[]) => boolean;
  /** The main frame's navigations: whether the site is still answering one, how many came (see `AfterSubmitOptions.navigation`). */
  navigation?: AfterSubmitOptions<undefined>["navigation"];
  /**
   * Checks weak evidence of a session (see session-evidence's `secondLook`): proof of a session, beside a
   * visitor without it, or null and why nothing was proven. Without it, weak evidence is no success.
   */
  confirmSession?: (onAStep: boolean) => Promise<SecondLookAnswer>;
  /** Messages of JavaScript dialogs (alert, confirm) the page opened since the submit. */
  dialogs?: () => string[];
  /**
   * Answers a one-time-code prompt (TOTP, a code from our inbox, or a person's), when the request brought a
   * way to; else it is mfa_required. `refusal`: the site refused the code before, in these words.
   */
  answerOtp?: (prompt: FrameScan, refusal?: string) => Promise<void>;
  /** How many codes one prompt may be given in all (a person gets more than one try); default 1. */
  codeTries?: number;
  /**
   * Asks a person to approve the sign-in on their other device, or to verify it's them where the page
   * waits for something done elsewhere (a link mailed to them), when the caller allowed a hand-off; else
   * such a page is mfa_required. The page goes on by itself once they did; their answer ("look again")
   * reloads it.
   */
  awaitApproval?: (prompt: string, reason?: "approval" | "verification") => PendingApproval;
  /**
   * A person answers a security question or a "verify it's you" field, picks from a chooser, or accepts
   * (or declines) the site's terms (the caller allowed a hand-off). Without it those are mfa_required, and a
   * chooser is read as any other page. `refusal`: the site refused the last answer, in these words.
   */
  answerStep?: (scan: FrameScan, kind: PersonStep, refusal?: string) => Promise<StepAnswered>;
  /** Whether a one-time code was typed into the password's own form (a code field beside the password). */
  codeInForm?: () => boolean;
  /** Answers "check your email": waits for the sign-in link in our mailbox and opens it in this page. */
  answerLink?: () => Promise<void>;
  onStep?: (step: string) => void;
  settleMs?: number;
}

/** Whether the page shows the learned signed-in marker, visible, in a document that has been parsed. */
async function markerShown(page: Page, marker: SignedInMarker): Promise<boolean> {
  const frame = findFrame(page, marker.frame);
  const el = frame ? await resolveElement(frame, marker.path) : null;
  if (!el) return false;
  try {
    return await el.evaluate(
      (e) =>
        e.ownerDocument.readyState !== "loading" &&
        e.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
    );
  } finally {
    await el.dispose().catch(() => undefined);
  }
}

// Words that name a one-time code, in a refusal of a form that held one.
const CODE_WORD = /\b(code|token|otp|totp|pin|2fa)\b|\bcodice\b|\bc[oó]digo\b/i;

const samePath = (a: SignedInMarker | null, b: SignedInMarker | null) =>
  !!a && !!b && a.frame === b.frame && a.path.join("\u0000") === b.path.join("\u0000");

/**
 * Watches the page after the password was submitted until it shows a verdict. Success needs the password
 * field gone, no refusal, no question left ("Stay signed in?"), every frame readable, no HTTP error and
 * new session state, seen on two polls in a row, or on one poll when the signed-in marker this site
 * showed before is there. A page that still asks for the password is never a success.
 */
export async function classifyOutcome(
  page: Page,
  before: SessionSnapshot,
  deadline: Deadline,
  options: ClassifyOptions,
): Promise<Outcome> {
  const status = () => options.documentStatus?.() ?? 0;
  const watcher = new AfterSubmit(page, deadline, {
    identifier: () => options.identifier,
    before,
    status,
    movedAway: options.movedAway,
    sentBack: options.sentBack,
    navigation: options.navigation,
    dialogs: () => options.dialogs?.() ?? [],
    sayings: true,
    onStep: options.onStep,
    settleMs: options.settleMs,
    // Where this site's signed-in page showed its marker before, the page is read as soon as it shows it.
    shownEarly: options.learnedMarker ? () => markerShown(page, options.learnedMarker!) : undefined,
  });
  let lastPasswordShown = true;
  let unsettled: string | null = null;
  let otpAnswered = false;
  let codesGiven = 0;
  let approval: PendingApproval | null = null;
  let approvalsAsked = 0;
  let linkOpened = false;
  let stepAnswers = 0;
  // The person turned down the site's terms: a failure after it is theirs (consent_denied), not the password's.
  let declined = false;
  let confirmPolls = 0;
  const judge = async (poll: Poll<undefined>): Promise<PollResult<Outcome>> => {
    const { scans, signals, fresh, sayings } = poll;
    if (scans.length === 0) return { success: false }; // navigating
    lastPasswordShown = signals.passwordShown;
    // The one field of a "verify it's you" step reads like a username-first form's: it is the step's.
    const verifyField = signals.verify?.reading.verify?.field ?? null;
    const verifying =
      !!verifyField &&
      samePath({ frame: "", path: verifyField }, { frame: "", path: signals.verify!.reading.identifier ?? [] }) &&
      scans.filter((s) => s.reading.identifier).length === 1;
    const stillAsking = signals.passwordShown || (signals.identifierOnlyShown && !verifying);
    // Once a code was typed or a link opened, a refusal is of that code or link, not of the password.
    const afterFactor = otpAnswered || linkOpened || stepAnswers > 0;
    const refusalOf = (m: string): LoginFailureCode | null => {
      const code = refusalCode(m);
      if (!afterFactor) return code;
      if (code === "invalid_credentials" || (code !== "account_locked" && EXPIRED.test(m)))
        return "verification_failed";
      return code;
    };
    // Beside a form that is still shown, new plain text that refuses counts like a message.
    const refusals = [
      ...fresh.map((m) => ({ m, code: refusalOf(m) })),
      ...(stillAsking ? sayings.map((s) => ({ m: s.block, code: refusalOf(s.news) })) : []),
    ].filter((r) => r.code !== null);
    const fail = (code: LoginFailureCode, message: string, codeAskedInForm?: string) => ({
      verdict: { kind: "failure" as const, code, message, ...(codeAskedInForm ? { codeAskedInForm } : {}) },
    });
    const locked = refusals.find((r) => r.code === "account_locked");
    if (locked) return fail("account_locked", locked.m);
    // A form shown again with its CAPTCHA and the site's "wrong password" is a refusal of the password.
    if (
      refusals.some((r) => r.code === "captcha_blocked") ||
      (signals.captcha && !refusals.some((r) => r.code === "invalid_credentials"))
    ) {
      return fail("captcha_blocked", "the site asked for a CAPTCHA");
    }
    if (!signals.passwordShown && signals.otpPrompt) {
      const prompt = scans.find((s) => s.reading.otp.length > 0);
      // The prompt again, with new plain text that refuses the code ("That code didn't work." in a div).
      const said = otpAnswered ? refusalSaid(sayings, "verification_failed") : null;
      const refused = !otpAnswered
        ? null
        : fresh.length > 0
          ? fresh[0]!
          : said?.code === "verification_failed"
            ? said.message
            : null;
      if (refused && prompt && options.answerOtp && codesGiven < (options.codeTries ?? 1)) {
        // Another try (a person's): the refusal is no verdict while this document shows it.
        codesGiven++;
        const again = await watcher.act(poll, () => options.answerOtp!(prompt, refused));
        watcher.seeWhileShown(refused);
        return again;
      }
      if (otpAnswered && fresh.length > 0)
        return fail("verification_failed", `the site refused the one-time code: ${fresh[0]}`);
      if (said)
        return fail(
          said.code,
          said.code === "verification_failed" ? `the site refused the one-time code: ${said.message}` : said.message,
        );
      if (!otpAnswered && prompt && options.answerOtp) {
        otpAnswered = true;
        codesGiven = 1;
        return watcher.act(poll, () => options.answerOtp!(prompt));
      }
      if (!otpAnswered) return fail("mfa_required", "the site asked for a one-time code");
    }
    // A security question, a chooser of the account to go on as, terms to accept, a "verify it's you" field:
    // a person answers, and the site judges it.
    const personStep: PersonStep | null =
      signals.otpPrompt || signals.passwordShown
        ? null
        : signals.terms
          ? "consent"
          : stillAsking
            ? null
            : signals.question
              ? "question"
              : signals.chooser && options.answerStep
                ? "chooser"
                : signals.verify?.reading.verify?.field
                  ? "verification"
                  : null;
    if (personStep) {
      const scan = {
        question: signals.question,
        chooser: signals.chooser,
        verification: signals.verify,
        consent: signals.terms,
      }[personStep]!;
      if (!options.answerStep) {
        return fail(
          "mfa_required",
          {
            question: "the site asked a security question only the account's owner can answer",
            chooser: "the site asked to choose an account", // (a chooser is a step only with a person to ask)
            verification: "the site asked to verify it's the account's owner (a new device or an unusual sign-in)",
            consent: "the site holds the sign-in until its terms are accepted, which only the account's owner can do",
          }[personStep],
        );
      }
      const said = stepAnswers > 0 ? refusalSaid(sayings, "verification_failed") : null;
      const refused = stepAnswers === 0 ? null : fresh.length > 0 ? fresh[0]! : said ? said.message : null;
      // Answered, and the step still shows without a word from the site: its answer is on the way.
      if (stepAnswers > 0 && !refused) return "again";
      if (refused && stepAnswers >= STEP_TRIES)
        return fail("verification_failed", `the site refused the answer: ${refused}`);
      stepAnswers++;
      const again = await watcher.act(poll, async () => {
        if ((await options.answerStep!(scan, personStep, refused ?? undefined)) === "declined") declined = true;
      });
      if (refused) watcher.seeWhileShown(refused);
      return again;
    }
    // "Check your email" counts once a second poll still shows it without a code field: a page still being
    // parsed can show its heading before its code field, and a code prompt must not be taken for a link.
    confirmPolls = !stillAsking && signals.confirmByEmail && !signals.otpPrompt ? confirmPolls + 1 : 0;
    // "Verify it's you" with nothing to type: it waits for the person elsewhere (a link mailed to them that
    // is not ours to read). A person with the mail is asked, as for an approval.
    const verifyElsewhere =
      !stillAsking &&
      !signals.otpPrompt &&
      !linkOpened &&
      ((!!signals.verify && !signals.confirmByEmail) || (confirmPolls > 1 && !options.answerLink)) &&
      (!!options.awaitApproval || !signals.confirmByEmail);
    // "Approve the sign-in on your phone": only a person can, and the page goes on by itself once they did.
    if ((!stillAsking && signals.approvalPrompt && !signals.otpPrompt) || verifyElsewhere) {
      const reason = signals.approvalPrompt ? ("approval" as const) : ("verification" as const);
      if (!options.awaitApproval) {
        return fail(
          "mfa_required",
          reason === "approval"
            ? "the site asked to approve the sign-in on another device (a push to a phone or an app)"
            : "the site asked to verify it's the account's owner",
        );
      }
      if (approval?.failure) throw approval.failure;
      if (approval?.answered) {
        // "Approved: look again": a page that does not ask its site by itself is loaded again.
        approval = null;
        await page.reload({ waitUntil: "domcontentloaded" }).catch(() => undefined);
      } else if (!approval) {
        if (approvalsAsked >= APPROVAL_TRIES)
          return fail("mfa_required", `the site still asked to approve the sign-in after ${APPROVAL_TRIES} answers`);
        approvalsAsked++;
        const prompt =
          reason === "approval"
            ? (scans.find((s) => s.reading.approvalPrompt)?.reading.text ?? "")
            : (signals.verify?.reading.verify?.prompt ??
              scans.find((s) => s.reading.confirmByEmail)?.reading.text ??
              "");
        approval = options.awaitApproval(promptOf(prompt), reason);
      }
      // The person's time is the hand-off's, not the site's: looked at again every second meanwhile.
      await new Promise((resolve) => setTimeout(resolve, APPROVAL_LOOK_MS));
      watcher.restart();
      return "again";
    }
    if (approval) {
      // The page went on (approved on the phone, or a refusal): the question is withdrawn.
      approval.cancel();
      approval = null;
    }
    if (confirmPolls === 1 && !linkOpened) return "wait";
    if (confirmPolls > 1) {
      if (!linkOpened && options.answerLink) {
        linkOpened = true;
        return watcher.act(poll, options.answerLink);
      }
      if (!linkOpened) return fail("mfa_required", "the site asked to confirm the sign-in by email");
    }
    const refusedCode = afterFactor ? "verification_failed" : "invalid_credentials";
    // Beside the form shown again, words that are about the form as it was sent, not the credentials: a code
    // it wants ("Please enter your OTP token.") or refused, a field it got empty ("The password field is empty.").
    const aboutTheForm = stillAsking
      ? [...refusals.map((r) => r.m), ...fresh].find((m) => asksForCode(m) || namesEmptyField(m))
      : undefined;
    if (aboutTheForm !== undefined) {
      if (!asksForCode(aboutTheForm))
        return fail(
          "login_unconfirmed",
          `the site says its form came with a field empty, though every field was filled and checked before it was sent: ${aboutTheForm}`,
        );
      if (options.codeInForm?.())
        return fail("verification_failed", `the site refused the one-time code: ${aboutTheForm}`);
      return fail(
        "mfa_required",
        `the site asks for a second factor's code with the password: ${aboutTheForm}`,
        aboutTheForm,
      );
    }
    // A code typed in the password's own form, refused in words that name it ("Invalid token."): the code's refusal.
    const codeRefusal =
      stillAsking && options.codeInForm?.()
        ? refusals.find((r) => r.code === "invalid_credentials" && CODE_WORD.test(r.m))
        : undefined;
    if (codeRefusal) return fail("verification_failed", `the site refused the one-time code: ${codeRefusal.m}`);
    if (stillAsking && refusals.length > 0) {
      // "Something went wrong" is the site's fault, not a refusal of the credentials.
      const refusal = refusals.find((r) => !siteFault(r.m)) ?? refusals[0]!;
      const own = refusal.code === "account_locked" || refusal.code === "login_blocked";
      return fail(own ? refusal.code! : siteFault(refusal.m) ? "login_unconfirmed" : refusedCode, refusal.m);
    }
    if (stillAsking && fresh.length > 0) {
      // A message without refusal words ("Checking…") counts once the page has settled on it.
      if (unsettled === fresh[0]) return fail(refusedCode, fresh[0]!);
      unsettled = fresh[0]!;
      return "again";
    }
    if (stillAsking && signals.validation) {
      // The browser kept the form from being sent: the site never saw the attempt.
      return fail("invalid_credentials", `the login form does not accept the username: ${signals.validation}`);
    }
    // A risk notice on a page that shows the account ("We noticed unusual activity") walls nothing off.
    const standing = refusals.filter((r) => r.code !== "login_blocked" || !signals.signedIn);
    if (!stillAsking && standing.length > 0) return fail(standing[0]!.code!, standing[0]!.m);
    const interstitial = signals.interstitial;
    const answer = interstitial ? { frame: interstitial.key, path: interstitial.reading.interstitial! } : null;
    if (!stillAsking && answer && !samePath(answer, options.submitted) && (await watcher.answerInterstitial(poll))) {
      watcher.restart();
      return "again";
    }
    const found = signals.signedIn ? { frame: signals.signedIn.key, path: signals.signedIn.reading.signedIn! } : null;
    if (!stillAsking && !found) {
      // A formless page that says, in plain text, that the login failed (no alert markup).
      const said = sayings
        .map((s) => ({ m: s.block, code: refusalOf(s.news) }))
        .find(
          (r) => r.code === "account_locked" || r.code === "invalid_credentials" || r.code === "verification_failed",
        );
      if (said) return fail(said.code!, said.m);
    }
    if (!stillAsking && status() >= 500)
      return fail("target_unreachable", `the site answered the login with HTTP ${status()}`);
    const seen = !stillAsking && !answer ? await watcher.newSession(poll) : "none";
    // A chooser is a step: whether the site signed in before the choice is for its login page to say.
    const evidence = seen === "strong" && signals.chooser ? "weak" : seen;
    const success = evidence !== "none";
    if (success && (poll.successBefore || samePath(found, options.learnedMarker ?? null))) {
      if (evidence === "weak") {
        // No account shown, no page of its own, or only cookies that rotate anyway: the site's login page decides.
        // A chooser is a step: the page it is on is never the signed-in page the second look may compare.
        const looked = options.confirmSession
          ? await options.confirmSession(!!signals.chooser)
          : { signedIn: null, why: "nothing was checked" };
        if (!looked.signedIn)
          return fail("login_unconfirmed", `the login form is gone, but nothing proves a session: ${looked.why}`);
      }
      return { verdict: { kind: "success", marker: found } };
    }
    return { success };
  };
  try {
    const outcome = await watcher.watch(judge, (): Outcome => {
      if (deadline.remaining() === 0)
        return { kind: "failure", code: "timeout", message: "timed out waiting for the page after submit" };
      if (status() >= 400)
        return {
          kind: "failure",
          code: "login_unconfirmed",
          message: `the site answered the login with HTTP ${status()}`,
        };
      return {
        kind: "failure",
        code: "login_unconfirmed",
        message: lastPasswordShown
          ? "the login form is still shown, without an error message"
          : "the login form is gone but the site set no new session state",
      };
    });
    // Declined terms that keep the account out: the person's decision, said as such (the site's words after).
    if (declined && outcome.kind === "failure" && outcome.code !== "account_locked") {
      return {
        kind: "failure",
        code: "consent_denied",
        message: `the site's terms were declined, and it did not sign in: ${outcome.message}`,
      };
    }
    return outcome;
  } finally {
    // A verdict reached while a person was asked to approve: the question is withdrawn.
    (approval as PendingApproval | null)?.cancel();
  }
}
