import type { Page } from "@authsvc/browser";
import { type Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { type CaptchaPassage, type CaptchaPerson, passCaptcha } from "../captcha/pass-captcha";
import { newSayings, readNotes, refusalSaid, sentencesShown } from "../page/page-sayings";
import type { SelectorPath } from "../page/read-page";
import { refusalCode } from "../page/refusal-words";
import { type FrameScan, mergeSignals, scanPage } from "../page/scan-page";
import { frameChange } from "../page/page-change";
import { consentClick, FORM_WAIT_MS, FormSearch, openerClick } from "../page/form-search";
import { type Next, watchPage } from "../page/watch-page";
import { type Rotation, type SessionSnapshot, snapshotSession } from "../page/session-snapshot";
import { fieldHolds, fieldKeeps, type FlowStep, performStep, type StepValues, submitsPassword } from "../page/steps";
import { describeStep, extraKeysOf, type LearnedFlow } from "./learned-flow";
import type { FlowOptions, PasswordLoginInput } from "./password-login";
import { settle, type UnsettledMessage } from "./verdict/unsettled-message";

// A message without refusal words ("Checking…") is a verdict only once it stayed this long.
const MESSAGE_SETTLE_MS = 1000;
// A submit button disabled until the site validated the fields may take this long to enable.
const SUBMIT_ENABLE_WAIT_MS = 2000;
// A learned step's element may take this long to appear (the first one: as long as a form may take).
const REPLAY_STEP_WAIT_MS = 3000;
// How many times fields a page script emptied or rewrote are typed again before the form goes out.
const REFILLS = 2;

/** One login attempt on one page: the steps it took and the state before the password went in. */
// How long a method control just clicked is not clicked again while its page may still be on its way.
const METHOD_SETTLE_MS = 1500;

export class LoginRun {
  readonly steps: FlowStep[] = [];
  before: SessionSnapshot | null = null;
  /** The step that sent the password (or, without one, the email or phone number). */
  submitStep: FlowStep | null = null;
  /** When that step was about to go out, on the inbox's clock: messages from then on are the site's answer. */
  since: Date | null = null;
  /** The address of the page that step was taken on. */
  submittedOn: string | null = null;
  /** A one-time code was typed into the password's own form (its refusal then is the code's). */
  codeTyped = false;
  /** The code typed last, to check its field still holds it before the form goes out. */
  private lastCode = "";
  private readonly values: StepValues;
  /** The submit was marked before a person was asked to solve a CAPTCHA: the flow's own submit is that one. */
  private premarked = false;
  private readonly extraKeys: string[];

  constructor(
    private readonly page: Page,
    private readonly input: PasswordLoginInput,
    private readonly options: FlowOptions,
    private readonly deadline: Deadline,
    /** Called just before the password is sent (after the session snapshot). */
    private readonly onSubmit: () => void,
    /** What the page's own requests showed rotating before the submit (see session-evidence). */
    private readonly rotation?: () => Rotation,
  ) {
    this.values = {
      identifier: input.identifier,
      password: input.password ?? "",
      additionalFields: input.additionalFields ?? {},
    };
    if (input.totp) this.takeCodeFrom(input.totp);
    this.extraKeys = Object.keys(this.values.additionalFields).sort();
  }

  private step(name: string): void {
    this.options.onStep?.(name);
  }

  /**
   * From now on the code field beside the password is filled from `source`: the request's TOTP, or a
   * person's code through the hand-off.
   */
  takeCodeFrom(source: () => Promise<string>): void {
    this.values.code = async () => {
      this.lastCode = await source();
      this.codeTyped = true;
      return this.lastCode;
    };
  }

  /** Performs and records a step; the password's submit first snapshots the session and tells the caller. */
  private async perform(step: FlowStep, name: string): Promise<boolean> {
    const done = await performStep(this.page, step, this.values, async () => {
      this.step(name);
      // The first step that acts on the page: the form is found (the provider's, in an OAuth login).
      if (this.steps.length === 0) this.options.onMilestone?.("form_found");
      if (submitsPassword(step) && !this.premarked) await this.markSubmit(step);
      if (submitsPassword(step)) [this.premarked, this.submitStep] = [false, step];
    });
    if (done) this.steps.push(step);
    return done;
  }

  /** The password is about to go out by `step` (or by a person's hand, in a hand-off): the state before it, and the caller told. */
  private async markSubmit(step: FlowStep): Promise<void> {
    this.before = await snapshotSession(
      this.page.browserContext(),
      this.page,
      this.values.identifier,
      this.rotation?.(),
    );
    this.since = (await this.input.inbox?.mark()) ?? null;
    await this.options.beforeSubmit?.();
    this.submitStep = step;
    this.submittedOn = this.page.url();
    this.onSubmit();
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
    const typesCode = flow.steps.some((s) => s.action === "type" && s.value === "code");
    return (
      extraKeysOf(flow).join("\n") === this.extraKeys.join("\n") &&
      typesPassword === this.hasPassword &&
      (!typesCode || !!this.values.code)
    );
  }

  /** The text a typing step put in its field (null: nothing to compare, a box or a choice). */
  private typedText(step: FlowStep): string | null {
    if (step.action === "type")
      return step.value === "code"
        ? this.lastCode
        : step.value === "identifier"
          ? this.values.identifier
          : this.values.password;
    if (step.action === "extra") {
      const value = this.values.additionalFields[step.key];
      return typeof value === "string" || typeof value === "number" ? String(value) : null;
    }
    return null;
  }

  /**
   * Before the form goes out: every field typed since `from` (this form's steps) still holds what was
   * typed. A page script that moved the focus while the keys went out (the rest of the password landed in
   * the username field), or that cleared or rewrote a field, has it typed again; a form that will not keep
   * its values is not sent (a site would answer "the password field is empty", read as a wrong password).
   */
  private async ensureFilled(from: number): Promise<void> {
    const typed = new Map<string, FlowStep>();
    for (const step of this.steps.slice(from))
      if (this.typedText(step) !== null) typed.set(`${step.frame} ${JSON.stringify(step.path)}`, step);
    for (let round = 0; typed.size > 0; round++) {
      const lost: FlowStep[] = [];
      for (const step of typed.values()) {
        if (
          (await fieldKeeps(this.page, step as { frame: string; path: SelectorPath }, this.typedText(step)!)) === false
        )
          lost.push(step);
      }
      if (lost.length === 0) return;
      const names = lost.map(describeStep).join(", ");
      if (round >= REFILLS)
        throw new LoginFlowError(
          "form_not_found",
          `the login form did not keep what was typed in it (${names}); nothing was sent`,
        );
      this.step(`the page changed what was typed (${names}); typing it again`);
      for (const step of lost) await performStep(this.page, step, this.values);
    }
  }

  /**
   * Replays a learned flow step by step, each as soon as its element is there. Returns whether the
   * password was submitted; false means the page changed and detection must take over from here.
   */
  async replay(flow: LearnedFlow): Promise<boolean> {
    let beforeNext: Set<string> | null = null;
    for (const [i, step] of flow.steps.entries()) {
      const waitUntil = Date.now() + Math.min(i === 0 ? FORM_WAIT_MS : REPLAY_STEP_WAIT_MS, this.deadline.remaining());
      if (submitsPassword(step)) {
        // This form's fields: those typed since the last step that sent a form on (a username-first step).
        const lastNext = this.steps.map((s) => sendsStep(s)).lastIndexOf(true);
        await this.ensureFilled(lastNext + 1);
        const typed = flow.steps.find((s) => s.action === "type" && s.value === "password");
        if ((await this.passCaptcha(step, typed ? { frame: typed.frame, path: typed.path } : null)) === "sent")
          return true;
      }
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
        await frameChange(this.page, step.frame, 100);
      }
    }
    return false;
  }

  /** Whether the page shows a username field without a password field (a first step). */
  private firstStepShown(): Promise<boolean> {
    return scanPage(this.page, this.values.identifier, this.extraKeys).then(
      (scans) => mergeSignals(scans).identifierOnlyShown,
      () => false,
    );
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

  /**
   * A CAPTCHA nobody answered means submitting would fail and count as a failed attempt on the site. With
   * a hand-off, a person may solve it in the live view and send the form themselves: `sends` is then taken
   * as sent (the password's submit is marked before they are asked). `field`: the field the flow typed last,
   * which no longer holds its value once the form went out.
   */
  private async passCaptcha(
    sends: FlowStep,
    field: { frame: string; path: SelectorPath } | null,
  ): Promise<CaptchaPassage> {
    const handoff = this.input.handoff;
    const person: CaptchaPerson | undefined =
      handoff && field
        ? {
            handoff,
            beforeAsk: async () => {
              if (!submitsPassword(sends)) return;
              await this.markSubmit(sends);
              this.premarked = true;
            },
            formHeld: () => fieldHolds(this.page, field),
          }
        : undefined;
    const passage = await passCaptcha(
      this.page,
      this.deadline,
      this.options.captchaSolver,
      (name) => this.step(name),
      person,
    );
    if (passage === "sent") {
      this.premarked = false;
      this.step("the person sent the form");
      this.steps.push(sends);
    }
    return passage;
  }

  /** Finds the form the way a person would and submits the password; throws when it cannot. */
  async detectAndSubmit(): Promise<void> {
    const search = new FormSearch();
    let consentClicks = 0;
    let openerClicks = 0;
    let methodClicks = 0;
    let lastMethod = null as { key: string; at: number } | null;
    let identifierSubmits = 0;
    let identifierSeen = 0;
    let messagesBeforeIdentifier = new Set<string>();
    let sentencesBeforeIdentifier = new Set<string>();
    let unsettled: UnsettledMessage | null = null;
    return watchPage(this.page, {
      deadline: this.deadline,
      quiet: false,
      clock: "beforeLook",
      read: () => scanPage(this.page, this.values.identifier, this.extraKeys),
      decide: async (scans): Promise<Next<void>> => {
        const signals = mergeSignals(scans);
        const login = scans.find((s) => s.reading.password) ?? null;
        const identifierOnly = login ? null : (scans.find((s) => s.reading.identifier) ?? null);
        const consent = consentClick(scans);
        if (consent && consentClicks < 2) {
          consentClicks++;
          await this.perform(consent, "accept cookie banner");
          search.progressed();
          return "again";
        }
        if (login) {
          if (!this.hasPassword) {
            throw new LoginFlowError(
              "form_not_found",
              "the page asks for a password and the request gave none; this method needs a page that sends a code or link",
            );
          }
          // A password sent without the username the form asks for would only come back as a wrong password.
          if (login.reading.identifier && !this.hasIdentifier) throw missingIdentifier();
          // Several fields the username could go in, and nothing tells which: a guess refused would read as a wrong password.
          if (login.reading.ambiguous.length > 0 && this.hasIdentifier) throw ambiguousForm(login.reading.ambiguous);
          return { verdict: await this.fillAndSubmit(login, scans) };
        }
        if (identifierOnly && !this.hasIdentifier) throw missingIdentifier();
        // Email (or phone) only, and no password to give: this form asks the site to send a code or link.
        if (identifierOnly && !this.hasPassword) return { verdict: await this.fillAndSubmit(identifierOnly, scans) };
        if (identifierOnly) {
          if (identifierSubmits > 0) {
            // The first step shown again, refusing the username in plain text (under the field, a paragraph).
            await this.refusedStep(sentencesBeforeIdentifier);
            // The site refused the username: refusal words at once, any other message once it stayed a while.
            const fresh = signals.messages.find((m) => !messagesBeforeIdentifier.has(m));
            const code = fresh ? refusalCode(fresh) : null;
            if (fresh) {
              const waited = settle(unsettled, fresh, Date.now(), MESSAGE_SETTLE_MS);
              unsettled = waited.unsettled;
              if (code !== null || waited.settled)
                throw new LoginFlowError(code === "account_locked" ? code : "invalid_credentials", fresh);
            }
          } else if (!(await this.settledIdentifierOnly(identifierOnly, identifierSeen++))) {
            // Not yet sure there is no password field: a frame still parsing (a slow widget) or a form
            // drawn in two ticks shows its username field first. Pressing Enter there would send the form
            // without its password (a failed attempt on the site); read the page again once it drew nothing more.
            return "settle";
          } else {
            // Username first: the password comes on the next page or appears on this one.
            const { key, reading } = identifierOnly;
            if (!reading.identifierFilled)
              await this.perform(
                { action: "type", value: "identifier", frame: key, path: reading.identifier! },
                "type identifier",
              );
            messagesBeforeIdentifier = new Set(signals.messages);
            sentencesBeforeIdentifier = await this.sentencesNow();
            identifierSubmits++;
            await this.send("next", key, reading.submit, reading.identifier!);
            search.progressed();
            return "again";
          }
        } else {
          // A site that asks for its own method first (a passkey: the browser's authenticator answered "none"
          // at once): its way to the password, at once. One that names the password before "Try another way".
          const method = this.hasPassword
            ? (scans.find((s) => s.reading.otherMethod?.password) ?? scans.find((s) => s.reading.otherMethod))
            : undefined;
          if (method && methodClicks < 3) {
            const { path, password } = method.reading.otherMethod!;
            // The control just clicked, read again from a document that is being replaced (it led to another
            // page): not clicked twice while the next page comes.
            const key = `${this.page.url()} ${method.key} ${JSON.stringify(path)}`;
            if (lastMethod?.key === key && Date.now() - lastMethod.at < METHOD_SETTLE_MS) {
              return "wait";
            }
            methodClicks++;
            lastMethod = { key, at: Date.now() };
            // Before the password, a fault (the page went on meanwhile) only means the page changed: read it again.
            await this.perform(
              { action: "click", purpose: "method", frame: method.key, path },
              password ? "choose to sign in with the password" : "ask for another way to sign in",
            ).catch(() => false);
            search.progressed();
            return "again";
          }
          const opener = openerClick(scans);
          if (opener && openerClicks < 2 && search.openerDue()) {
            openerClicks++;
            await this.perform(opener, "open the login form");
            search.progressed();
            return "again";
          }
        }
        if (search.overdue()) {
          throw new LoginFlowError(
            "form_not_found",
            identifierSubmits > 0
              ? "the site took the username but never asked for the password"
              : "no username and password form was found on the page",
          );
        }
        return "wait";
      },
      timeUp: () => {
        throw this.deadline.expired("looking for the login form");
      },
    });
  }

  /**
   * Whether a username field without a password field is the page's first step, not a form half read:
   * its frame has finished parsing, and an earlier read already saw the same (`seenBefore`).
   */
  private async settledIdentifierOnly(scan: FrameScan, seenBefore: number): Promise<boolean> {
    const parsed = await scan.frame.evaluate(() => document.readyState !== "loading").catch(() => false);
    return parsed && seenBefore > 0;
  }

  /**
   * Sends a form (`next`: the username on; `submit`: the password), its CAPTCHA passed first: by a person
   * solving it (hand-off), who may send the form themselves, else by its control or Enter in `field`. False
   * when it could not go out.
   */
  private async send(
    purpose: "next" | "submit",
    frame: string,
    control: SelectorPath | null,
    field: SelectorPath,
  ): Promise<boolean> {
    const sends: FlowStep = control
      ? { action: "click", purpose, frame, path: control }
      : { action: "enter", purpose, frame, path: field };
    if ((await this.passCaptcha(sends, { frame, path: field })) === "sent") return true;
    return this.press(purpose, frame, control, field);
  }

  /**
   * Sends a step's form: its control, which gets a moment when it is disabled until the site's own
   * (debounced) validation ran, else Enter in the field. False when neither could be done.
   */
  private async press(
    purpose: "next" | "submit",
    frame: string,
    control: SelectorPath | null,
    field: SelectorPath,
  ): Promise<boolean> {
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
    const from = this.steps.length;
    if (reading.identifier && !reading.identifierFilled) {
      await this.perform(
        { action: "type", value: "identifier", frame: key, path: reading.identifier },
        "type identifier",
      );
    }
    for (const name of this.extraKeys) {
      const where = [login, ...scans].find((s) => s.reading.extras[name]);
      if (!where) {
        this.step(`additional field not on the page: ${name}`);
        continue;
      }
      await this.perform(
        { action: "extra", key: name, frame: where.key, path: where.reading.extras[name]! },
        `fill additional field ${name}`,
      );
    }
    if (reading.remember)
      await this.perform(
        { action: "check", purpose: "remember", frame: key, path: reading.remember },
        "tick remember me",
      );
    if (reading.password)
      await this.perform({ action: "type", value: "password", frame: key, path: reading.password }, "type password");
    // A code field in the same form: the authenticator's code goes with the password (an optional one stays
    // empty without a TOTP secret; a site that wants it says so, and that is mfa_required).
    if (reading.codeBeside && this.values.code)
      await this.perform({ action: "type", value: "code", frame: key, path: reading.codeBeside }, "type one-time code");
    await this.ensureFilled(from);
    if (!(await this.send("submit", key, reading.submit, reading.password ?? reading.identifier!))) {
      throw new LoginFlowError("form_not_found", "the login form went away before it could be submitted");
    }
  }
}

/** A step that sends the username on (Next, Continue), after which the site answers before the password. */
const sendsStep = (step: FlowStep) => (step.action === "click" || step.action === "enter") && step.purpose === "next";

/** `form_ambiguous`: the candidate fields, each named where the caller puts its value (`additionalFields`, by name or label). */
function ambiguousForm(fields: Array<{ label: string; name: string }>): LoginFlowError {
  const named = fields.map((f) => f.label || f.name);
  return new LoginFlowError(
    "form_ambiguous",
    `the login form has ${fields.length} fields the username could go in (${named.map((n) => `"${n}"`).join(", ")}) and nothing tells which; name the others in additionalFields and send again`,
    {
      retryable: false,
      details: fields.map((f) => ({ field: `/additionalFields/${f.name || f.label}`, message: f.label || f.name })),
    },
  );
}

const missingIdentifier = () =>
  new LoginFlowError("form_not_found", "the page asks for a username or email and the request gave none");
