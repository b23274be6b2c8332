import type { Page } from "@authsvc/browser";
import { type Deadline, sleep } from "../deadline";
import { type CaptchaPassage, type CaptchaPerson, passCaptcha } from "../captcha/pass-captcha";
import type { SelectorPath } from "../page/read-page";
import { type Rotation, type SessionSnapshot, snapshotSession } from "../page/session-snapshot";
import { fieldHolds, type FlowStep, performStep, type StepValues, submitsPassword } from "../page/steps";
import { findAndSubmit } from "./find-form";
import { extraKeysOf, type LearnedFlow } from "./learned-flow";
import type { FlowOptions, PasswordLoginInput } from "./password-login";
import { replayFlow } from "./replay-flow";

// A submit button disabled until the site validated the fields may take this long to enable.
const SUBMIT_ENABLE_WAIT_MS = 2000;

/**
 * One login attempt on one page: the steps it took and the state before the password went in, which the
 * verdict reads. Its two ways to the submit are a learned flow replayed (replay-flow.ts) and the form found
 * the way a person would (find-form.ts, username-first.ts), filled and sent (fill-form.ts); what they share,
 * acting on the page and marking the submit, is here, and their members below are theirs too.
 */
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
  /** What the steps type (never logged); the additional fields' keys, sorted. */
  readonly values: StepValues;
  readonly extraKeys: string[];
  /** The code typed last, to check its field still holds it before the form goes out. */
  private lastCode = "";
  /** The submit was marked before a person was asked to solve a CAPTCHA: the flow's own submit is that one. */
  private premarked = false;

  constructor(
    readonly page: Page,
    private readonly input: PasswordLoginInput,
    private readonly options: FlowOptions,
    readonly deadline: Deadline,
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

  /** Names a step in the log (never with a secret). */
  step(name: string): void {
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

  /**
   * Replays a learned flow step by step, each as soon as its element is there. Returns whether the
   * password was submitted; false means the page changed and detection must take over from here.
   */
  replay(flow: LearnedFlow): Promise<boolean> {
    return replayFlow(this, flow);
  }

  /** Finds the form the way a person would and submits the password; throws when it cannot. */
  detectAndSubmit(): Promise<void> {
    return findAndSubmit(this);
  }

  get hasPassword(): boolean {
    return this.values.password !== "";
  }

  /** A password-only login (a site password, a router) may come without a username. */
  get hasIdentifier(): boolean {
    return this.values.identifier !== "";
  }

  /** Performs and records a step; the password's submit first snapshots the session and tells the caller. */
  async perform(step: FlowStep, name: string): Promise<boolean> {
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

  /** The text a typing step put in its field (null: nothing to compare, a box or a choice). */
  typedText(step: FlowStep): string | null {
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
   * A CAPTCHA nobody answered means submitting would fail and count as a failed attempt on the site. With
   * a hand-off, a person may solve it in the live view and send the form themselves: `sends` is then taken
   * as sent (the password's submit is marked before they are asked). `field`: the field the flow typed last,
   * which no longer holds its value once the form went out.
   */
  async passCaptcha(sends: FlowStep, field: { frame: string; path: SelectorPath } | null): Promise<CaptchaPassage> {
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

  /**
   * Sends a form (`next`: the username on; `submit`: the password), its CAPTCHA passed first: by a person
   * solving it (hand-off), who may send the form themselves, else by its control or Enter in `field`. False
   * when it could not go out.
   */
  async send(
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
}
