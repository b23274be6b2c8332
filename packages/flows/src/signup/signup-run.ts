import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import type { PageWatch } from "../page/page-watch";
import { snapshotSession, type SessionSnapshot } from "../page/session-snapshot";
import { fieldHolds, performStep, typeText, type StepValues } from "../page/steps";
import { passCaptcha } from "../captcha/pass-captcha";
import type { SelectorPath } from "../page/read-page";
import { scanPage } from "../page/scan-page";
import { namesFor, usernameFrom } from "./account-names";
import { generatePassword, PasswordRulesError } from "./password-generator";
import { parsePasswordRules, type PasswordRules } from "./password-rules";
import type { SignupReading, SignupRole } from "./read-signup-form";
import type { SignupInput, SignupOptions } from "./signup";
import { bestForm, scanSignup, type SignupScan } from "./signup-scan";

/** One signup on one page: the values it types, and what it learned from the site's refusals. */
export class SignupRun {
  email: string | null;
  username: string | null;
  password: string;
  /** Not the caller's: generated to the page's rules, pre-filled by the site, or mailed by it. */
  passwordGenerated: boolean;
  /** The form went out without a password field: the site mails a password or a link to set one. */
  passwordless = false;
  /** The password is one the site mailed: its first login may ask for a new one. */
  passwordMailed = false;
  /** The password was set on the page the site's mailed link opened, and the site took it. */
  passwordSet = false;
  /** A password sent on a set-password page the site has not taken yet. */
  private offeredPassword: string | null = null;
  private rules: PasswordRules | null = null;
  private hints: string[] = [];
  private readonly names: { full: string; first: string; last: string };
  private readonly extraKeys: string[];
  private readonly values: StepValues;
  before: SessionSnapshot | null = null;
  since: Date | null = null;
  loginLink: string | null = null;
  identifier: string | null = null;
  /** The signup form's password field as sent: a login form is another field than this one. */
  sentPassword: { frame: string; path: string } | null = null;
  submits = 0;

  constructor(
    private readonly page: Page,
    private readonly input: SignupInput,
    private readonly options: SignupOptions,
    private readonly watch: PageWatch,
  ) {
    this.email = input.email ?? null;
    this.username = input.username ?? null;
    this.password = input.password ?? "";
    this.passwordGenerated = !input.password;
    this.names = namesFor(input.name, input.email);
    this.extraKeys = Object.keys(input.additionalFields ?? {}).sort();
    this.values = { identifier: "", password: "", additionalFields: input.additionalFields ?? {} };
  }

  step(name: string): void {
    this.options.onStep?.(name);
  }

  /** The site holds no password we know: a passwordless signup still waiting for the site's mail. */
  get awaitsPassword(): boolean {
    return this.passwordless && !this.passwordMailed && !this.passwordSet;
  }

  /**
   * Takes up an account an earlier signup left waiting for the site's mail (see `awaitsPassword`): it
   * signs in with `identifier` on `loginUrl`, and the session the page has now (a site's page is open) is
   * the one to compare against, as the signup form's was.
   */
  async resume(identifier: string, loginUrl: string, since: Date): Promise<void> {
    this.identifier = identifier;
    this.loginLink = loginUrl;
    this.passwordless = true;
    this.since = since;
    this.before = await snapshotSession(this.page.browserContext(), this.page, "");
  }

  private valueFor(role: SignupRole, prefilled: string): string | null {
    switch (role) {
      case "email":
      case "confirmEmail":
        return this.email ?? (prefilled || null);
      case "username":
        return this.username;
      case "password":
      case "confirm":
        return this.password;
      case "firstName":
        return this.names.first;
      case "lastName":
        return this.names.last;
      case "fullName":
        return this.names.full;
      case "invite":
        return this.input.inviteToken ?? (prefilled || null);
    }
  }

  /** Settles the values the form needs: the email it shows, a username, a password to its rules. */
  private prepare(form: SignupScan): void {
    const { fields, passwordFacts } = form.reading;
    const has = (role: SignupRole) => fields.find((f) => f.role === role);
    const emailField = has("email");
    // An invitation may show the invited address, read-only: that is the account's email.
    if (emailField?.readOnly && emailField.value) this.email = emailField.value;
    if (emailField && !this.email)
      throw new LoginFlowError(
        "signup_rejected",
        "the signup form asks for an email address and the request gave none",
      );
    if (has("username") && !this.username) this.username = usernameFrom(this.email ?? undefined);
    // The account signs in with what the form asked for: its email, else its username.
    this.identifier = emailField ? this.email : has("username") ? this.username : this.email;
    if (!this.identifier)
      throw new LoginFlowError(
        "signup_rejected",
        "the signup form asks for neither an email address nor a username, and the request gave no email",
      );
    if (this.passwordGenerated && has("password") && !this.rules) {
      this.rules = this.rulesFrom(passwordFacts);
      this.password = this.generate();
    }
    if (form.reading.loginLink) this.loginLink = form.reading.loginLink;
  }

  private rulesFrom(facts: SignupReading["passwordFacts"]): PasswordRules {
    return parsePasswordRules({ ...facts, hints: [...(facts?.hints ?? []), ...this.hints] });
  }

  private generate(): string {
    try {
      return generatePassword(this.rules!);
    } catch (err) {
      if (err instanceof PasswordRulesError)
        throw new LoginFlowError(
          "signup_rejected",
          `no password can satisfy the site's stated rules (${err.message}); send cred.password`,
        );
      throw err;
    }
  }

  /** The site refused the generated password: read its rules again, with its words, and make a new one. */
  async regeneratePassword(message: string): Promise<void> {
    this.hints.push(message);
    const form = bestForm(await scanSignup(this.page));
    this.rules = this.rulesFrom(form?.reading.passwordFacts ?? null);
    this.password = this.generate();
  }

  /**
   * Sets the new account's password on the page its mailed link opened: the caller's, else the one the
   * site pre-filled (read, not typed), else one generated to the page's rules; then saves it. It is the
   * account's password only once the site took it (`acceptPassword`): a refused one is never kept.
   */
  async setPassword(form: SignupScan, refusal?: string): Promise<void> {
    const { key, reading } = form;
    const field = reading.fields.find((f) => f.role === "password")!;
    const prefilled = !this.input.password && !refusal && field.value.length > 0;
    let candidate: string;
    if (this.input.password) candidate = this.input.password;
    else if (prefilled) candidate = field.value;
    else {
      if (refusal) this.hints.push(refusal);
      this.rules = this.rulesFrom(reading.passwordFacts);
      candidate = this.generate();
    }
    this.offeredPassword = candidate;
    for (const f of reading.fields.filter((f) => f.role === "password" || f.role === "confirm")) {
      if (f.role === "password" && prefilled) continue;
      await typeText(this.page, key, f.path, candidate);
    }
    this.watch.resetVerdict();
    this.step(prefilled ? "save the password the site filled in" : "set the password");
    await this.send(key, reading.submit, field.path);
  }

  /** The site took the password last set (its form is gone without a refusal): the account's password now. */
  acceptPassword(): void {
    if (this.offeredPassword === null) return;
    this.password = this.offeredPassword;
    this.offeredPassword = null;
    this.passwordSet = true;
  }

  /**
   * The login name the site assigned, from its mail ("Login : Agent-x"): the account signs in with it, not
   * with what the form was given (the email, or a username the site changed).
   */
  takeSiteLogin(login: string): void {
    if (login === this.identifier) return;
    this.step(`the site's mail names the login: ${login}`);
    this.identifier = login;
    if (this.username !== null) this.username = login;
  }

  /** The password the site mailed: the account's password now. */
  takeMailedPassword(password: string): void {
    this.password = password;
    this.passwordGenerated = true;
    this.passwordMailed = true;
  }

  /** Fills every field the form has a value for, ticks its consents, and sends it. */
  async fillAndSubmit(form: SignupScan, deadline: Deadline): Promise<void> {
    this.prepare(form);
    const { key, reading } = form;
    const extras = this.extraKeys.length
      ? ((await scanPage(this.page, "", this.extraKeys)).find((s) => s.key === key)?.reading.extras ?? {})
      : {};
    const extraPaths = new Set(
      Object.values(extras)
        .filter((p): p is SelectorPath => !!p)
        .map((p) => p.join("\u0000")),
    );
    const missing = [
      ...reading.unfilled.filter((f) => !extraPaths.has(f.path.join("\u0000"))).map((f) => f.label),
      ...reading.fields
        .filter((f) => f.required && !f.value && this.valueFor(f.role, f.value) === null)
        .map((f) => f.role),
    ];
    if (missing.length) {
      throw new LoginFlowError(
        "signup_rejected",
        `the signup form requires ${missing.map((m) => `"${m}"`).join(", ")}, which the request does not give; send them in additionalFields`,
      );
    }
    if (this.submits === 0) this.options.onMilestone?.("form_found");
    for (const field of reading.fields) {
      if (extraPaths.has(field.path.join("\u0000"))) continue;
      const value = this.valueFor(field.role, field.value);
      if (value === null || (field.readOnly && field.value)) continue;
      this.step(`type ${field.role}`);
      await typeText(this.page, key, field.path, value);
    }
    for (const name of this.extraKeys) {
      if (!extras[name]) {
        this.step(`additional field not on the page: ${name}`);
        continue;
      }
      await performStep(this.page, { action: "extra", key: name, frame: key, path: extras[name]! }, this.values);
      this.step(`fill additional field ${name}`);
    }
    for (const consent of reading.consents) {
      await performStep(this.page, { action: "check", purpose: "consent", frame: key, path: consent }, this.values);
      this.step("tick the terms box");
    }
    const field = reading.fields.find((f) => f.role === "password") ?? reading.fields[0];
    const password = reading.fields.find((f) => f.role === "password");
    this.sentPassword = password ? { frame: key, path: password.path.join("\u0000") } : null;
    this.passwordless = !password;
    this.before ??= await snapshotSession(this.page.browserContext(), this.page, "");
    this.since ??= (await this.input.inbox?.mark()) ?? null;
    // Marked once, before the form can go out: by our hand, or by a person solving its CAPTCHA (hand-off).
    let marked = false;
    const mark = async () => {
      if (marked) return;
      marked = true;
      if (this.submits === 0) await this.options.beforeSubmit?.();
      this.submits++;
      this.watch.resetVerdict();
    };
    const handoff = this.input.handoff;
    const held = field ? { frame: key, path: field.path } : null;
    const person =
      handoff && held ? { handoff, beforeAsk: mark, formHeld: () => fieldHolds(this.page, held) } : undefined;
    if (
      (await passCaptcha(this.page, deadline, this.options.captchaSolver, (name) => this.step(name), person)) === "sent"
    ) {
      this.step("the person sent the signup form");
      return;
    }
    await mark();
    this.step("submit signup form");
    if (!(await this.send(key, reading.submit, field?.path)))
      throw new LoginFlowError("form_not_found", "the signup form has no control to send it");
  }

  /** Sends a form: its submit control clicked, else Enter pressed in `field`; false when it has neither. */
  private async send(frame: string, submit: SelectorPath | null, field: SelectorPath | undefined): Promise<boolean> {
    const clicked =
      submit &&
      (await performStep(this.page, { action: "click", purpose: "submit", frame, path: submit }, this.values).catch(
        () => false,
      ));
    if (clicked) return true;
    if (!field) return false;
    await performStep(this.page, { action: "enter", purpose: "submit", frame, path: field }, this.values);
    return true;
  }
}
