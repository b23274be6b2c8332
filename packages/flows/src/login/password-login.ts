import { answerHttpAuth, type BrowserContext, captureState, type Page, type TargetGuard } from "@authsvc/browser";
import type { Handoff } from "../handoff";
import type { CapturedSession } from "@authsvc/contracts";
import { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import type { CaptchaSolver } from "../captcha/pass-captcha";
import type { Inbox } from "../inbox/await-verification";
import { PageWatch } from "../page/page-watch";
import { mergeSignals, scanPage } from "../page/scan-page";
import { secondLook } from "../page/second-look";
import { readJar, sessionStorageOf } from "../page/session-evidence";
import { classifyOutcome } from "./classify-outcome";
import { keepable, type LearnedFlow } from "./learned-flow";
import { LoginRun } from "./login-run";
import { secondFactors } from "./second-factors";

// How many times a form shown again with a CAPTCHA is filled again for a person to solve it.
const CAPTCHA_FORMS_AGAIN = 2;

export interface PasswordLoginInput {
  loginUrl: string;
  /** Empty for a password-only login: then only a page without an identifier field is filled. */
  identifier: string;
  /** Absent for sites that take only the email (or phone) and send a code or link. */
  password?: string;
  additionalFields?: Record<string, string | number | boolean>;
  /** A code the caller already has (an emailed confirmation code): it answers the site's first code prompt. */
  code?: string;
  /** Gives a TOTP code just in time, for a site that asks for one after the password. */
  totp?: () => Promise<string>;
  /** Our mailbox or phone number, where the site sends its code or sign-in link. */
  inbox?: Inbox;
  /** How long to wait for that message (default 2 minutes); then the login ends in `timeout`. */
  inboxWaitMs?: number;
  /** A person who answers what nothing else can (a code the request gave no way to read); see `Handoff`. */
  handoff?: Handoff;
}

/** The moments of a flow its job's clients are told of: the form was found; the site's answer is being read. */
export type FlowMilestone = "form_found" | "verifying";

export interface FlowOptions {
  guard: TargetGuard;
  timeoutMs: number;
  /** Called with each step's name, for logs and the try-login command; never with a secret. */
  onStep?: (step: string) => void;
  /** Called at the steps a job's clients follow (GET /v1/jobs/:id/events); never with a secret. */
  onMilestone?: (milestone: FlowMilestone) => void;
  /** Awaited just before the password is submitted, so the caller can record that it was. */
  beforeSubmit?: () => Promise<void>;
  /** What worked on this login page before; replayed first, with detection as the fallback. */
  learned?: LearnedFlow | null;
  /** Answers CAPTCHA challenges; without one (the default) a challenge ends the login in `captcha_blocked`. */
  captchaSolver?: CaptchaSolver;
  /**
   * What to do in the signed-in page once the verdict is a success, before its state is captured (adding a
   * passkey on the site's settings): its failure is the login's.
   */
  afterSignIn?: (page: Page, watch: PageWatch, deadline: Deadline) => Promise<void>;
  /**
   * Another browser context of the same job (its proxy, its browser profile): a visitor without the session,
   * for the second look at weak evidence. Without it, a fresh context of the same browser.
   */
  openContext?: () => Promise<BrowserContext>;
}

export interface PasswordLoginResult {
  /** Tells it from a signup's result (a verify may end with either). */
  kind: "login";
  session: CapturedSession;
  /** The steps that worked this time, to remember for the next login on this page; null when they cannot
   * be kept without a secret (a selector that holds the username). */
  flow: LearnedFlow | null;
  /** `learned`: the stored flow worked as it was; `relearned`: it no longer fit and detection took over. */
  source: "detected" | "learned" | "relearned";
  /** The page the password was submitted on: where this account logs in next time. */
  loginPage: string;
}

/**
 * Logs in with a username (or email) and password on a page nobody scripted: open the page, replay what
 * worked here before or find the form (iframes, shadow roots, username-first, behind a "Log in" link or a
 * cookie banner), type, submit, and read the verdict off the page. `page` must be fresh, in a context of
 * its own. Returns the whole browser state and the flow that worked.
 */
export async function passwordLogin(
  page: Page,
  input: PasswordLoginInput,
  options: FlowOptions,
): Promise<PasswordLoginResult> {
  const deadline = new Deadline(options.timeoutMs);
  const watch = await PageWatch.attach(page, options.guard, input.loginUrl);
  options.onStep?.("open login page");
  // Challenges are cancelled until the site is seen to ask: the credentials go out only once it does.
  const httpAuth = answerHttpAuth(page, null);
  await watch.open(input.loginUrl, deadline, "login page");
  const origin = new URL(input.loginUrl).origin;
  if (watch.documentStatus === 401 && httpAuth.challenged.has(origin)) {
    const signedIn = await httpAuthentication(page, watch, input, options, deadline, origin);
    if (signedIn) return signedIn;
  }
  return signInOnPage(page, watch, input, options, deadline);
}

/**
 * The login page answers 401 with an HTTP authentication challenge (Basic, Digest: the browser's own
 * prompt): it is answered with the username and password, once, for that origin only, as a person types them
 * into the prompt. A second challenge is the site's refusal: `invalid_credentials` (never an unreachable
 * site). Taken, the page behind it is the site's: a login form there (the challenge was a gate) goes on by
 * the usual login (null); else the session is what the browser holds, with the credentials a browser must
 * send again (`httpCredentials`, Playwright's context option): the site's HTTP authentication challenges
 * every request, cookies or not.
 */
async function httpAuthentication(
  page: Page,
  watch: PageWatch,
  input: PasswordLoginInput,
  options: FlowOptions,
  deadline: Deadline,
  origin: string,
): Promise<PasswordLoginResult | null> {
  const step = options.onStep ?? (() => undefined);
  if (!input.identifier || !input.password) {
    throw new LoginFlowError(
      "form_not_found",
      "the site asks for HTTP authentication (a username and password) and the request gave no " +
        (input.identifier ? "password" : "username"),
    );
  }
  step("answer the site's HTTP authentication");
  options.onMilestone?.("form_found");
  await options.beforeSubmit?.();
  const state = answerHttpAuth(page, { origin, username: input.identifier, password: input.password });
  watch.resetVerdict();
  await watch.open(input.loginUrl, deadline, "login page");
  options.onMilestone?.("verifying");
  if (state.refused || watch.documentStatus === 401) {
    throw new LoginFlowError(
      "invalid_credentials",
      "the site refused the username and password (HTTP 401 to its authentication challenge)",
      { retryable: false },
    );
  }
  if (watch.documentStatus >= 400)
    throw new LoginFlowError(
      "login_unconfirmed",
      `the site answered its authentication with HTTP ${watch.documentStatus}`,
    );
  // A page the site served without asking again proves nothing: only the credentials taken sign in.
  if (!state.answered)
    throw new LoginFlowError(
      "login_unconfirmed",
      "the site did not ask for its HTTP authentication again, so nothing shows it took the credentials",
    );
  // A login form behind the gate: the usual login goes on from it.
  const signals = mergeSignals(
    await scanPage(page, input.identifier).catch(() => Object.assign([], { unreadable: 1 })),
  );
  if (signals.passwordShown || signals.identifierOnlyShown) return null;
  step("capture session");
  const session = await captureState(page.browserContext(), page, watch.visited, watch.documentOrigins);
  return {
    kind: "login",
    session: { ...session, httpCredentials: { username: input.identifier, password: input.password, origin } },
    flow: null,
    source: "detected",
    loginPage: input.loginUrl,
  };
}

/**
 * The login on a page that is already open and watched (the login page, or where a signup left the
 * browser): replay or detect, submit, answer what the site asks next, read the verdict, capture the state.
 */
export async function signInOnPage(
  page: Page,
  watch: PageWatch,
  input: PasswordLoginInput,
  options: FlowOptions,
  deadline: Deadline,
): Promise<PasswordLoginResult> {
  const step = options.onStep ?? (() => undefined);
  const context = page.browserContext();
  // The jar as the page loaded: what changes in it before the submit changes on its own (session-evidence).
  const earlier = await readJar(context).catch(() => null);
  const run = new LoginRun(
    page,
    input,
    options,
    deadline,
    () => watch.resetVerdict(),
    () => ({ earlier, reissued: watch.reissuedCookies() }),
  );
  let source: PasswordLoginResult["source"] = "detected";
  let submitted = false;
  if (options.learned && run.fits(options.learned)) {
    submitted = await run.replay(options.learned);
    source = submitted ? "learned" : "relearned";
    if (!submitted) step("the learned flow no longer fits the page; detecting the form");
  }
  if (!submitted) await run.detectAndSubmit();
  watch.check();

  step("read verdict");
  options.onMilestone?.("verifying");
  const factors = secondFactors(page, watch, input, () => run.since, deadline, step);
  const classify = () => {
    const sent = run.submitStep;
    return classifyOutcome(page, run.before!, deadline, {
      identifier: input.identifier,
      submitted: sent ? { frame: sent.frame, path: sent.path } : null,
      dialogs: () => watch.dialogs,
      ...factors,
      learnedMarker: source === "learned" ? options.learned?.signedIn : null,
      codeInForm: () => run.codeTyped,
      documentStatus: () => watch.documentStatus,
      navigation: watch,
      sentBack: (tokens) => watch.sentBack(tokens),
      movedAway: () => watch.movedAway(run.submittedOn ?? input.loginUrl) && watch.movedAway(input.loginUrl),
      confirmSession: async (onAStep) =>
        secondLook({
          context,
          loginUrl: run.submittedOn ?? input.loginUrl,
          endedOn: onAStep ? null : page.url(),
          identifier: input.identifier,
          openContext: options.openContext,
          guard: options.guard,
          deadline,
          sessionStorage: await sessionStorageOf(page),
          onStep: step,
        }),
      onStep: step,
    });
  };
  let outcome = await classify();
  // The form again with a CAPTCHA (a wrong answer, or one the site shows after a first attempt): with a
  // hand-off, the form is filled again and a person solves it; the site's answer is read as before.
  for (
    let again = 0;
    input.handoff && outcome.kind === "failure" && outcome.code === "captcha_blocked" && again < CAPTCHA_FORMS_AGAIN;
    again++
  ) {
    step("the site shows its form again with a CAPTCHA");
    const resent = await run.detectAndSubmit().then(
      () => true,
      (err: unknown) => {
        if (err instanceof LoginFlowError && err.code === "form_not_found") return false;
        throw err;
      },
    );
    if (!resent) break;
    outcome = await classify();
  }
  // The site wants a second factor's code in its login form ("Please enter your OTP token.") and the request
  // brought no secret for it: with a hand-off a person gives the code, and the form goes again with it.
  const handoff = input.handoff;
  if (handoff && outcome.kind === "failure" && outcome.codeAskedInForm) {
    const asked = outcome.codeAskedInForm;
    run.takeCodeFrom(async () => {
      step("ask a person for the code the login form asks for");
      const answer = await handoff.ask(
        { reason: "code", prompt: asked, fields: ["code"] },
        new AbortController().signal,
      );
      if (!answer.code)
        throw new LoginFlowError("verification_failed", "the person gave no code", { retryable: false });
      return answer.code;
    });
    step("the site asks for a code with the password; filling its form again");
    await run.detectAndSubmit();
    outcome = await classify();
  }
  watch.check();
  if (outcome.kind === "failure") throw new LoginFlowError(outcome.code, outcome.message);
  await options.afterSignIn?.(page, watch, deadline);

  step("capture session");
  const session = await captureState(context, page, watch.visited, watch.documentOrigins);
  return {
    kind: "login",
    session,
    flow: keepable({ version: 1, steps: run.steps, signedIn: outcome.marker }, input.identifier, input.password ?? ""),
    source,
    loginPage: run.submittedOn ?? input.loginUrl,
  };
}
