import { captureState, type Page, type TargetGuard } from "@authsvc/browser";
import type { SessionResponse } from "@authsvc/contracts";
import { Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { PageWatch } from "../page/page-watch";
import { awaitVerification, type Inbox } from "../inbox/await-verification";
import { classifyOutcome } from "./classify-outcome";
import { answerOtp } from "../page/answer-otp";
import { refusalCode } from "../page/refusal-words";
import { type SessionSnapshot, snapshotSession } from "../page/session-snapshot";
import { extraKeysOf, type LearnedFlow } from "./learned-flow";
import { newSayings, readNotes, refusalSaid, sentencesShown } from "../page/page-sayings";
import { type CaptchaSolver, passCaptcha } from "../captcha/pass-captcha";
import { type FlowStep, performStep, type StepValues, submitsPassword } from "../page/steps";
import type { SelectorPath } from "../page/read-page";
import { type FrameScan, mergeSignals, scanPage } from "../page/scan-page";

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
}

export interface FlowOptions {
  guard: TargetGuard;
  timeoutMs: number;
  /** Called with each step's name, for logs and the try-login command; never with a secret. */
  onStep?: (step: string) => void;
  /** Awaited just before the password is submitted, so the caller can record that it was. */
  beforeSubmit?: () => Promise<void>;
  /** What worked on this login page before; replayed first, with detection as the fallback. */
  learned?: LearnedFlow | null;
  /** Answers CAPTCHA challenges; without one (the default) a challenge ends the login in `captcha_blocked`. */
  captchaSolver?: CaptchaSolver;
}

export interface PasswordLoginResult {
  session: SessionResponse;
  /** The steps that worked this time, to remember for the next login on this page; null when they cannot
   * be kept without a secret (a selector that holds the username). */
  flow: LearnedFlow | null;
  /** `learned`: the stored flow worked as it was; `relearned`: it no longer fit and detection took over. */
  source: "detected" | "learned" | "relearned";
  /** The page the password was submitted on: where this account logs in next time. */
  loginPage: string;
}

// How long a page may take to show a login form after our last action on it (load, click, submit).
const FORM_WAIT_MS = 8000;
// A "Log in" link is only followed once the page had a moment to draw a form of its own.
const OPENER_PATIENCE_MS = 700;
// A message without refusal words ("Checking…") is a verdict only once it stayed this long.
const MESSAGE_SETTLE_MS = 1000;
// A submit button disabled until the site validated the fields may take this long to enable.
const SUBMIT_ENABLE_WAIT_MS = 2000;
// Words of a code prompt that say the code was sent by email or SMS, or that it comes from an app.
const MESSAGE_WORDS = /e-?mail|inbox|sms|text message|texted|phone|mobile|we (just )?sent|gesendet|geschickt|envoy|enviad|inviat|verzonden|verstuurd/i;
const APP_WORDS = /authenticator|authentication app|auth app|totp|google auth|authy/i;
// A learned step's element may take this long to appear (the first one: as long as a form may take).
const REPLAY_STEP_WAIT_MS = 3000;

/** One login attempt on one page: the steps it took and the state before the password went in. */
class LoginRun {
  readonly steps: FlowStep[] = [];
  before: SessionSnapshot | null = null;
  /** The step that sent the password (or, without one, the email or phone number). */
  submitStep: FlowStep | null = null;
  /** When that step was about to go out, on the inbox's clock: messages from then on are the site's answer. */
  since: Date | null = null;
  /** The address of the page that step was taken on. */
  submittedOn: string | null = null;
  private readonly values: StepValues;
  private readonly extraKeys: string[];

  constructor(
    private readonly page: Page,
    private readonly input: PasswordLoginInput,
    private readonly options: FlowOptions,
    private readonly deadline: Deadline,
    /** Called just before the password is sent (after the session snapshot). */
    private readonly onSubmit: () => void,
  ) {
    this.values = { identifier: input.identifier, password: input.password ?? "", additionalFields: input.additionalFields ?? {} };
    this.extraKeys = Object.keys(this.values.additionalFields).sort();
  }

  private step(name: string): void {
    this.options.onStep?.(name);
  }

  /** Performs and records a step; the password's submit first snapshots the session and tells the caller. */
  private async perform(step: FlowStep, name: string): Promise<boolean> {
    const done = await performStep(this.page, step, this.values, async () => {
      this.step(name);
      if (submitsPassword(step)) {
        this.before = await snapshotSession(this.page.browserContext(), this.page, this.values.identifier);
        this.since = (await this.input.inbox?.mark()) ?? null;
        await this.options.beforeSubmit?.();
        this.submitStep = step;
        this.submittedOn = this.page.url();
        this.onSubmit();
      }
    });
    if (done) this.steps.push(step);
    return done;
  }

  private get hasPassword(): boolean {
    return this.values.password !== "";
  }

  /** A password-only login (a site password, a router) may come without a username. */
  private get hasIdentifier(): boolean {
    return this.values.identifier !== "";
  }

  /**
   * Whether a learned flow can be tried: it fills exactly the extra fields this request brings, and types
   * a password only when the request has one.
   */
  fits(flow: LearnedFlow): boolean {
    const typesPassword = flow.steps.some((s) => s.action === "type" && s.value === "password");
    return extraKeysOf(flow).join("\n") === this.extraKeys.join("\n") && typesPassword === this.hasPassword;
  }

  /**
   * Replays a learned flow step by step, each as soon as its element is there. Returns whether the
   * password was submitted; false means the page changed and detection must take over from here.
   */
  async replay(flow: LearnedFlow): Promise<boolean> {
    let beforeNext: Set<string> | null = null;
    for (const [i, step] of flow.steps.entries()) {
      const waitUntil = Date.now() + Math.min(i === 0 ? FORM_WAIT_MS : REPLAY_STEP_WAIT_MS, this.deadline.remaining());
      if (submitsPassword(step)) await this.passCaptcha();
      if (sendsStep(step)) beforeNext = await this.sentencesNow();
      for (;;) {
        if (submitsPassword(step)) {
          // A fault once the password may have gone out is not a reason to try again by detection.
          if (await this.perform(step, `replay: ${describeStep(step)}`)) return true;
        } else {
          // Before the submit, any fault only means the page is not what the flow knew.
          const done = await this.perform(step, `replay: ${describeStep(step)}`).catch(() => false);
          if (done) break;
        }
        // The next step is not there, the first one is again: the site may have refused the username.
        if (beforeNext && !sendsStep(step) && (await this.firstStepShown())) await this.refusedStep(beforeNext);
        if (Date.now() >= waitUntil) return false;
        await sleep(100);
      }
    }
    return false;
  }

  /** Whether the page shows a username field without a password field (a first step). */
  private firstStepShown(): Promise<boolean> {
    return scanPage(this.page, this.values.identifier, this.extraKeys).then((scans) => mergeSignals(scans).identifierOnlyShown, () => false);
  }

  /** The sentences the page shows now: what the site's answer to the next step is compared with. */
  private async sentencesNow(): Promise<Set<string>> {
    return new Set(sentencesShown(await readNotes(this.page)));
  }

  /**
   * Throws the site's refusal of the username when the page newly says one, whatever its markup. Only
   * asked of a first step shown again: the next page's own words ("Wrong account?") are not a refusal.
   */
  private async refusedStep(before: Set<string>): Promise<void> {
    const said = refusalSaid(newSayings(await readNotes(this.page), before), "invalid_credentials");
    if (said) throw new LoginFlowError(said.code, said.message);
  }

  /** A CAPTCHA nobody answered means submitting would fail and count as a failed attempt on the site. */
  private passCaptcha(): Promise<void> {
    return passCaptcha(this.page, this.deadline, this.options.captchaSolver, (name) => this.step(name));
  }

  /** Finds the form the way a person would and submits the password; throws when it cannot. */
  async detectAndSubmit(): Promise<void> {
    let lastProgress = Date.now();
    let consentClicks = 0;
    let openerClicks = 0;
    let identifierSubmits = 0;
    let messagesBeforeIdentifier = new Set<string>();
    let sentencesBeforeIdentifier = new Set<string>();
    let unsettled = null as { message: string; since: number } | null;
    for (;;) {
      this.deadline.check("looking for the login form");
      const scans = await scanPage(this.page, this.values.identifier, this.extraKeys);
      const signals = mergeSignals(scans);
      const login = scans.find((s) => s.reading.password) ?? null;
      const identifierOnly = login ? null : (scans.find((s) => s.reading.identifier) ?? null);
      const consent = scans.find((s) => s.reading.consent);
      if (consent && consentClicks < 2) {
        consentClicks++;
        await this.perform({ action: "click", purpose: "consent", frame: consent.key, path: consent.reading.consent! }, "accept cookie banner");
        lastProgress = Date.now();
        continue;
      }
      if (login) {
        if (!this.hasPassword) {
          throw new LoginFlowError("form_not_found", "the page asks for a password and the request gave none; this method needs a page that sends a code or link");
        }
        // A password sent without the username the form asks for would only come back as a wrong password.
        if (login.reading.identifier && !this.hasIdentifier) throw missingIdentifier();
        return this.fillAndSubmit(login, scans);
      }
      if (identifierOnly && !this.hasIdentifier) throw missingIdentifier();
      // Email (or phone) only, and no password to give: this form asks the site to send a code or link.
      if (identifierOnly && !this.hasPassword) return this.fillAndSubmit(identifierOnly, scans);
      if (identifierOnly) {
        if (identifierSubmits > 0) {
          // The first step shown again, refusing the username in plain text (under the field, a paragraph).
          await this.refusedStep(sentencesBeforeIdentifier);
          // The site refused the username: refusal words at once, any other message once it stayed a while.
          const fresh = signals.messages.find((m) => !messagesBeforeIdentifier.has(m));
          const code = fresh ? refusalCode(fresh) : null;
          if (fresh && unsettled?.message !== fresh) unsettled = { message: fresh, since: Date.now() };
          if (fresh && (code !== null || Date.now() - unsettled!.since >= MESSAGE_SETTLE_MS)) {
            throw new LoginFlowError(code === "account_locked" ? code : "invalid_credentials", fresh);
          }
        } else {
          // Username first: the password comes on the next page or appears on this one.
          const { key, reading } = identifierOnly;
          if (!reading.identifierFilled) await this.perform({ action: "type", value: "identifier", frame: key, path: reading.identifier! }, "type identifier");
          messagesBeforeIdentifier = new Set(signals.messages);
          sentencesBeforeIdentifier = await this.sentencesNow();
          identifierSubmits++;
          await this.passCaptcha();
          await this.press("next", key, reading.submit, reading.identifier!);
          lastProgress = Date.now();
          continue;
        }
      } else {
        const opener = scans.find((s) => s.reading.opener);
        if (opener && openerClicks < 2 && Date.now() - lastProgress >= OPENER_PATIENCE_MS) {
          openerClicks++;
          await this.perform({ action: "click", purpose: "opener", frame: opener.key, path: opener.reading.opener! }, "open the login form");
          lastProgress = Date.now();
          continue;
        }
      }
      if (Date.now() - lastProgress > FORM_WAIT_MS) {
        throw new LoginFlowError("form_not_found", identifierSubmits > 0
          ? "the site took the username but never asked for the password"
          : "no username and password form was found on the page");
      }
      await sleep(150);
    }
  }

  /**
   * Sends a step's form: its control, which gets a moment when it is disabled until the site's own
   * (debounced) validation ran, else Enter in the field. False when neither could be done.
   */
  private async press(purpose: "next" | "submit", frame: string, control: SelectorPath | null, field: SelectorPath): Promise<boolean> {
    const name = purpose === "next" ? "submit identifier" : "submit";
    if (control) {
      const until = Date.now() + Math.min(SUBMIT_ENABLE_WAIT_MS, this.deadline.remaining());
      for (;;) {
        if (await this.perform({ action: "click", purpose, frame, path: control }, name)) return true;
        if (Date.now() >= until) break;
        await sleep(100);
      }
      this.step("the form's button cannot be clicked; pressing Enter in the field");
    }
    return this.perform({ action: "enter", purpose, frame, path: field }, name);
  }

  private async fillAndSubmit(login: FrameScan, scans: FrameScan[]): Promise<void> {
    const { key, reading } = login;
    if (reading.identifier && !reading.identifierFilled) {
      await this.perform({ action: "type", value: "identifier", frame: key, path: reading.identifier }, "type identifier");
    }
    for (const name of this.extraKeys) {
      const where = [login, ...scans].find((s) => s.reading.extras[name]);
      if (!where) {
        this.step(`additional field not on the page: ${name}`);
        continue;
      }
      await this.perform({ action: "extra", key: name, frame: where.key, path: where.reading.extras[name]! }, `fill additional field ${name}`);
    }
    if (reading.remember) await this.perform({ action: "check", purpose: "remember", frame: key, path: reading.remember }, "tick remember me");
    if (reading.password) await this.perform({ action: "type", value: "password", frame: key, path: reading.password }, "type password");
    await this.passCaptcha();
    if (!(await this.press("submit", key, reading.submit, reading.password ?? reading.identifier!))) {
      throw new LoginFlowError("form_not_found", "the login form went away before it could be submitted");
    }
  }
}

/** A step that sends the username on (Next, Continue), after which the site answers before the password. */
const sendsStep = (step: FlowStep) => (step.action === "click" || step.action === "enter") && step.purpose === "next";

const missingIdentifier = () => new LoginFlowError("form_not_found", "the page asks for a username or email and the request gave none");

/**
 * A flow is stored in the clear, so it must hold no secret: a selector or frame name that contains the
 * username or the password (an id like "#avatar-ada") loses the marker, or the whole flow.
 */
function keepable(flow: LearnedFlow, input: PasswordLoginInput): LearnedFlow | null {
  const secrets = [input.identifier, input.password ?? ""].filter((v) => v.length >= 3).map((v) => v.toLowerCase());
  const holds = (value: unknown) => secrets.some((secret) => JSON.stringify(value).toLowerCase().includes(secret));
  if (holds(flow.steps)) return null;
  return holds(flow.signedIn) ? { ...flow, signedIn: null } : flow;
}

function describeStep(step: FlowStep): string {
  switch (step.action) {
    case "click":
      return `click ${step.purpose}`;
    case "type":
      return `type ${step.value}`;
    case "enter":
      return `press Enter (${step.purpose})`;
    case "extra":
      return `fill additional field ${step.key}`;
    case "check":
      return "tick remember me";
  }
}

/**
 * Logs in with a username (or email) and password on a page nobody scripted: open the page, replay what
 * worked here before or find the form (iframes, shadow roots, username-first, behind a "Log in" link or a
 * cookie banner), type, submit, and read the verdict off the page. `page` must be fresh, in a context of
 * its own. Returns the whole browser state and the flow that worked.
 */
export async function passwordLogin(page: Page, input: PasswordLoginInput, options: FlowOptions): Promise<PasswordLoginResult> {
  const deadline = new Deadline(options.timeoutMs);
  const watch = await PageWatch.attach(page, options.guard, input.loginUrl);
  options.onStep?.("open login page");
  await watch.open(input.loginUrl, deadline, "login page");
  return signInOnPage(page, watch, input, options, deadline);
}

/**
 * The login on a page that is already open and watched (the login page, or where a signup left the
 * browser): replay or detect, submit, answer what the site asks next, read the verdict, capture the state.
 */
export async function signInOnPage(page: Page, watch: PageWatch, input: PasswordLoginInput, options: FlowOptions, deadline: Deadline): Promise<PasswordLoginResult> {
  const step = options.onStep ?? (() => undefined);
  const context = page.browserContext();
  const run = new LoginRun(page, input, options, deadline, () => watch.resetVerdict());
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
  const sent = run.submitStep;
  const siteHost = new URL(input.loginUrl).hostname;
  const fromInbox = (inbox: Inbox, wanted: "code" | "link") => async () => {
    step(`wait for the sign-in ${wanted} ${inbox.kind === "email" ? "by email" : "by SMS"}`);
    const since = run.since ?? (await inbox.mark());
    return awaitVerification(inbox, wanted, since, siteHost, Math.min(input.inboxWaitMs ?? 120_000, deadline.remaining()));
  };
  // A prompt that speaks of an email or text message is answered from our inbox; one that speaks of an
  // authenticator app (or says nothing) with the TOTP secret, when the request gave one.
  const codeSource = (prompt: FrameScan): (() => Promise<string>) | null => {
    const inbox = input.inbox ? fromInbox(input.inbox, "code") : null;
    const byMessage = MESSAGE_WORDS.test(prompt.reading.text) && !APP_WORDS.test(prompt.reading.text);
    if (input.code) return async () => input.code!;
    return (byMessage ? (inbox ?? input.totp) : (input.totp ?? inbox)) ?? null;
  };
  const outcome = await classifyOutcome(page, run.before!, deadline, {
    identifier: input.identifier,
    submitted: sent ? { frame: sent.frame, path: sent.path } : null,
    dialogs: () => watch.dialogs,
    answerOtp: input.totp || input.inbox || input.code ? (prompt) => answerOtp(page, prompt, codeSource(prompt)!, step) : undefined,
    answerLink: input.inbox
      ? async () => {
          const link = await fromInbox(input.inbox!, "link")();
          step("open the sign-in link");
          await watch.openEmailedLink(link, deadline, "sign-in link");
        }
      : undefined,
    learnedMarker: source === "learned" ? options.learned?.signedIn : null,
    documentStatus: () => watch.documentStatus,
    onStep: step,
  });
  watch.check();
  if (outcome.kind === "failure") throw new LoginFlowError(outcome.code, outcome.message);

  step("capture session");
  const session = await captureState(context, page, watch.visited, watch.documentOrigins);
  return { session, flow: keepable({ version: 1, steps: run.steps, signedIn: outcome.marker }, input), source, loginPage: run.submittedOn ?? input.loginUrl };
}
