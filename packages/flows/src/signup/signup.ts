import { randomInt } from "node:crypto";
import { captureState, type Page, type TargetGuard } from "@authsvc/browser";
import type { SessionResponse } from "@authsvc/contracts";
import { Deadline, sleep } from "../deadline";
import { LoginFlowError, SignupUnfinishedError } from "../flow-error";
import { type AccountMail, awaitAccountMail, awaitVerification, type Inbox } from "../mail/await-verification";
import { PageWatch } from "../page-watch";
import { EXPIRED, refusalCode, sessionChanged, snapshotSession, type SessionSnapshot } from "../login/classify-outcome";
import { answerOtp, type PasswordLoginResult, signInOnPage } from "../login/password-login";
import { performStep, typeText, type StepValues } from "../login/perform-step";
import type { SelectorPath } from "../login/read-page";
import { type FrameScan, mergeSignals, readFrames, scanPage } from "../login/scan-page";
import { generatePassword, parsePasswordRules, PasswordRulesError, type PasswordRules } from "./password-rules";
import { readSignupInPage, type SignupReading, type SignupRole } from "./read-signup-form";
import { ACCOUNT_MAILED, PROGRESS, signupRefusalOf } from "./signup-verdicts";

export interface SignupInput {
  /** The signup page, or the invitation link. */
  signupUrl: string;
  /** The signup URL is an invitation link: a secret, never stored or quoted in a message. */
  signupUrlIsSecret?: boolean;
  email?: string;
  username?: string;
  /** Absent: one is generated to the rules the page states (attributes, hints, its refusals). */
  password?: string;
  /** The person's name, for full-name and first/last-name fields. */
  name?: string;
  /** An invitation token, typed into the page's invitation field. */
  inviteToken?: string;
  additionalFields?: Record<string, string | number | boolean>;
  /** Our mailbox, where the site sends its confirmation link or code. */
  inbox?: Inbox;
  inboxWaitMs?: number;
}

export interface SignupOptions {
  guard: TargetGuard;
  timeoutMs: number;
  onStep?: (step: string) => void;
  /** Awaited just before the signup form is sent (a job must never send it twice). */
  beforeSubmit?: () => Promise<void>;
}

export interface SignupResult {
  session: SessionResponse;
  email: string | null;
  /** The username the site accepted (a variant when the one asked for was taken); null without a username field. */
  username: string | null;
  password: string;
  passwordGenerated: boolean;
  /** Where the account signs in next time: the page the flow logged in on, the signup page's "Log in" link, or the signup page. */
  loginUrl: string;
  /** What it signs in with: the email, else the username. */
  identifier: string;
  /** `signup`: the site signed the new account in; `login`: the flow logged in after the signup. */
  signedInBy: "signup" | "login";
}

type SignupScan = { key: string; reading: SignupReading };

// How long a page may take to show its signup form (a script-drawn form, a slow page).
const FORM_WAIT_MS = 8000;
const OPENER_PATIENCE_MS = 700;
// How long the page may take to answer a submit, a code or a link before the flow decides.
const SETTLE_MS = 10_000;
// A message without known words is the site's refusal once it stayed this long.
const MESSAGE_SETTLE_MS = 1000;
// A formless, quiet page that offers "Log in" after this many polls is not going to sign the user in.
const LOGIN_OFFER_POLLS = 3;
const MAX_USERNAME_VARIANTS = 3;
const MAX_PASSWORD_RETRIES = 2;
const MAX_INTERSTITIALS = 3;

/** A username from the email's local part (its +tag dropped), as people pick one: letters and digits. */
export function usernameFrom(email: string | undefined): string {
  const local = (email ?? "").split("@")[0]!.split("+")[0]!.toLowerCase().replace(/[^a-z0-9]/g, "");
  return local.length >= 3 ? local.slice(0, 20) : `user${randomInt(10_000, 100_000)}`;
}

/** Another username like the taken one: its stem and four random digits. */
export function usernameVariant(taken: string): string {
  return `${taken.replace(/\d{4}$/, "").slice(0, 16)}${randomInt(1000, 10_000)}`;
}

/** First and last name from `name`, else from the email's local part ("ada.lovelace@" gives Ada Lovelace). */
export function namesFor(name: string | undefined, email: string | undefined): { full: string; first: string; last: string } {
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  if (name?.trim()) {
    const [first, ...rest] = name.trim().split(/\s+/);
    return { full: name.trim(), first: first!, last: rest.join(" ") || first! };
  }
  const parts = (email ?? "").split("@")[0]!.split("+")[0]!.split(/[._-]+/).map((p) => p.replace(/[^a-zA-Z]/g, "")).filter((p) => p.length >= 2);
  const first = cap((parts[0] ?? "agent").toLowerCase());
  const last = cap((parts[1] ?? "user").toLowerCase());
  return { full: `${first} ${last}`, first, last };
}

async function scanSignup(page: Page): Promise<SignupScan[]> {
  return readFrames(page, readSignupInPage);
}

const bestForm = (scans: SignupScan[]) => scans.filter((s) => s.reading.score >= 4).sort((a, b) => b.reading.score - a.reading.score)[0] ?? null;

/** One signup on one page: the values it types, and what it learned from the site's refusals. */
class SignupRun {
  email: string | null;
  username: string | null;
  password: string;
  /** Not the caller's: generated to the page's rules, pre-filled by the site, or mailed by it. */
  passwordGenerated: boolean;
  /** The form went out without a password field: the site mails a password or a link to set one. */
  passwordless = false;
  /** The password is one the site mailed: its first login may ask for a new one. */
  passwordMailed = false;
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

  /** Waits for the signup form, accepting a cookie banner and following a "Sign up" link on the way. */
  async findForm(deadline: Deadline): Promise<SignupScan> {
    let lastProgress = Date.now();
    let clicks = 0;
    for (;;) {
      deadline.check("looking for the signup form");
      const scans = await scanSignup(this.page);
      const form = bestForm(scans);
      if (form) return form;
      const loginScans = await scanPage(this.page, "");
      const login = mergeSignals(loginScans);
      const consent = loginScans.find((s) => s.reading.consent);
      if (consent && clicks < 4) {
        clicks++;
        await performStep(this.page, { action: "click", purpose: "consent", frame: consent.key, path: consent.reading.consent! }, this.values);
        this.step("accept cookie banner");
        lastProgress = Date.now();
        continue;
      }
      const opener = scans.find((s) => s.reading.opener);
      if (opener && clicks < 4 && Date.now() - lastProgress >= OPENER_PATIENCE_MS) {
        clicks++;
        this.step("open the signup form");
        await performStep(this.page, { action: "click", purpose: "opener", frame: opener.key, path: opener.reading.opener! }, this.values);
        lastProgress = Date.now();
        continue;
      }
      if (login.captcha) throw new LoginFlowError("captcha_blocked", "the signup page shows a CAPTCHA");
      if (Date.now() - lastProgress > FORM_WAIT_MS) {
        throw new LoginFlowError("form_not_found", login.passwordShown ? "the page shows a login form, not a signup form" : "no signup form was found on the page");
      }
      await sleep(150);
    }
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
    if (emailField && !this.email) throw new LoginFlowError("signup_rejected", "the signup form asks for an email address and the request gave none");
    if (has("username") && !this.username) this.username = usernameFrom(this.email ?? undefined);
    // The account signs in with what the form asked for: its email, else its username.
    this.identifier = emailField ? this.email : has("username") ? this.username : this.email;
    if (!this.identifier) throw new LoginFlowError("signup_rejected", "the signup form asks for neither an email address nor a username, and the request gave no email");
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
      if (err instanceof PasswordRulesError) throw new LoginFlowError("signup_rejected", `no password can satisfy the site's stated rules (${err.message}); send cred.password`);
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
   * site pre-filled (read, not typed), else one generated to the page's rules; then saves it.
   */
  async setPassword(form: SignupScan, refusal?: string): Promise<void> {
    const { key, reading } = form;
    const field = reading.fields.find((f) => f.role === "password")!;
    const prefilled = !this.input.password && !refusal && field.value.length > 0;
    if (this.input.password) this.password = this.input.password;
    else if (prefilled) this.password = field.value;
    else {
      if (refusal) this.hints.push(refusal);
      this.rules = this.rulesFrom(reading.passwordFacts);
      this.password = this.generate();
    }
    for (const f of reading.fields.filter((f) => f.role === "password" || f.role === "confirm")) {
      if (f.role === "password" && prefilled) continue;
      await typeText(this.page, key, f.path, this.password);
    }
    this.watch.resetVerdict();
    this.step(prefilled ? "save the password the site filled in" : "set the password");
    const clicked = reading.submit && (await performStep(this.page, { action: "click", purpose: "submit", frame: key, path: reading.submit }, this.values).catch(() => false));
    if (!clicked) await performStep(this.page, { action: "enter", purpose: "submit", frame: key, path: field.path }, this.values);
  }

  /** The password the site mailed: the account's password now. */
  takeMailedPassword(password: string): void {
    this.password = password;
    this.passwordGenerated = true;
    this.passwordMailed = true;
  }

  /** Fills every field the form has a value for, ticks its consents, and sends it. */
  async fillAndSubmit(form: SignupScan): Promise<void> {
    this.prepare(form);
    const { key, reading } = form;
    const extras = this.extraKeys.length ? ((await scanPage(this.page, "", this.extraKeys)).find((s) => s.key === key)?.reading.extras ?? {}) : {};
    const extraPaths = new Set(Object.values(extras).filter((p): p is SelectorPath => !!p).map((p) => p.join("\u0000")));
    const missing = [
      ...reading.unfilled.filter((f) => !extraPaths.has(f.path.join("\u0000"))).map((f) => f.label),
      ...reading.fields.filter((f) => f.required && !f.value && this.valueFor(f.role, f.value) === null).map((f) => f.role),
    ];
    if (missing.length) {
      throw new LoginFlowError("signup_rejected", `the signup form requires ${missing.map((m) => `"${m}"`).join(", ")}, which the request does not give; send them in additionalFields`);
    }
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
    if (this.submits === 0) await this.options.beforeSubmit?.();
    this.submits++;
    this.watch.resetVerdict();
    this.step("submit signup form");
    const clicked = reading.submit && (await performStep(this.page, { action: "click", purpose: "submit", frame: key, path: reading.submit }, this.values).catch(() => false));
    if (!clicked && field) await performStep(this.page, { action: "enter", purpose: "submit", frame: key, path: field.path }, this.values);
    else if (!clicked) throw new LoginFlowError("form_not_found", "the signup form has no control to send it");
  }
}

type SignupVerdict = { kind: "signed-in" } | { kind: "login"; verified: boolean };

/** A page to choose the account's password on: a new password (and its confirmation), nothing else to type. */
const isSetPasswordForm = (form: SignupScan) =>
  form.reading.fields.some((f) => f.role === "password") && form.reading.fields.every((f) => f.role === "password" || f.role === "confirm" || f.readOnly || f.value !== "");

/**
 * Watches the page after the signup form went out until it tells what happened: a refusal (a taken
 * username is retried with a variant, a refused generated password with a new one), a confirmation by
 * code or link (answered from our inbox), a signed-in page, or a page that wants the new user to log in.
 */
async function awaitSignupVerdict(run: SignupRun, page: Page, watch: PageWatch, input: SignupInput, deadline: Deadline): Promise<SignupVerdict> {
  const context = page.browserContext();
  const until = () => Date.now() + Math.min(SETTLE_MS, deadline.remaining());
  let stopAt = until();
  const seen = new Set(run.before?.messages ?? []);
  let usernameVariants = 0;
  let passwordRetries = 0;
  let codeAnswered = false;
  let linkOpened = false;
  // A passwordless signup: its mail was read, and the password set on the page its link opened.
  let accountMailRead = false;
  let passwordSets = 0;
  let unsettled = null as { message: string; at: number } | null;
  let successSeen = false;
  let loginOffered = 0;
  let loginShown = 0;
  let interstitials = 0;
  // A refusal the site may repeat word for word after a resubmit: read again once the page changed.
  const recheck = new Set<string>();
  const siteHost = new URL(input.signupUrl).hostname;
  const fromInbox = async (wanted: "code" | "link") => {
    if (!input.inbox) {
      throw new LoginFlowError("verification_pending", `the site wants the new account's email confirmed by a ${wanted}, and no mail to ${run.email ?? "its address"} reaches the service`);
    }
    run.step(`wait for the confirmation ${wanted} by email`);
    const waitMs = Math.min(input.inboxWaitMs ?? 120_000, deadline.remaining());
    return awaitVerification(input.inbox, wanted, run.since ?? (await input.inbox.mark()), siteHost, waitMs, "confirmation").catch((err: unknown) => {
      // The account exists and waits for its confirmation; the caller can still give it one.
      throw err instanceof LoginFlowError && err.code === "timeout" ? new LoginFlowError("verification_pending", err.message) : err;
    });
  };
  const accountMail = async (): Promise<AccountMail> => {
    if (!input.inbox) {
      throw new LoginFlowError("verification_pending", `the site mails the new account's password (or a link to set it), and no mail to ${run.email ?? "its address"} reaches the service`);
    }
    run.step("wait for the account's password or its link by email");
    const waitMs = Math.min(input.inboxWaitMs ?? 120_000, deadline.remaining());
    return awaitAccountMail(input.inbox, run.since ?? (await input.inbox.mark()), siteHost, waitMs).catch((err: unknown) => {
      throw err instanceof LoginFlowError && err.code === "timeout" ? new LoginFlowError("verification_pending", err.message) : err;
    });
  };
  const resubmit = async (form: SignupScan, refusal: string) => {
    recheck.add(refusal);
    await run.fillAndSubmit(form);
    stopAt = until();
    successSeen = false;
    unsettled = null;
  };

  for (;;) {
    await page.waitForNetworkIdle({ idleTime: 250, timeout: Math.max(1, Math.min(1000, stopAt - Date.now())) }).catch(() => undefined);
    watch.check();
    const [signupScans, loginScans] = await Promise.all([scanSignup(page).catch(() => []), scanPage(page, run.email ?? run.username ?? "").catch(() => Object.assign([] as FrameScan[], { unreadable: 1 }))]);
    const signals = mergeSignals(loginScans);
    const form = bestForm(signupScans);
    const verified = codeAnswered || linkOpened;
    for (const m of recheck) {
      if (watch.documentStatus !== 0 || !signals.messages.includes(m)) {
        seen.delete(m);
        recheck.delete(m);
      }
    }
    const fresh = signals.messages.filter((m) => !seen.has(m) && !PROGRESS.test(m));
    fresh.push(...watch.dialogs.splice(0));
    if (signals.captcha) throw new LoginFlowError("captcha_blocked", "the site asked for a CAPTCHA");

    let handled = false;
    for (const message of fresh) {
      if (verified) {
        const code = refusalCode(message);
        const refused = code === "invalid_credentials" || EXPIRED.test(message) || (accountMailRead && !passwordSets && /\binvalid\b/i.test(message));
        if (refused) throw new LoginFlowError("verification_failed", `the site refused the ${accountMailRead ? "set-password" : "confirmation"} ${codeAnswered ? "code" : "link"}: ${message}`);
        if (passwordSets > 0 && form && isSetPasswordForm(form)) {
          // The site refused the password set on its page: a generated one is made again to its words.
          if (input.password || passwordSets > MAX_PASSWORD_RETRIES) throw new LoginFlowError("verification_failed", `the site refused the new password: ${message}`);
          seen.add(message);
          passwordSets++;
          await run.setPassword(form, message);
          stopAt = until();
          handled = true;
          break;
        }
        continue;
      }
      const kind = signupRefusalOf(message);
      // Only the form shown again is a refusal: a page past it may say "registered" in a welcome.
      if (kind === "account_exists" && form) throw new LoginFlowError("account_exists", message);
      if (kind === "username_taken" && form && run.username && usernameVariants < MAX_USERNAME_VARIANTS) {
        usernameVariants++;
        seen.add(message);
        const taken = run.username;
        run.username = usernameVariant(taken);
        run.step(`username taken; trying ${run.username}`);
        await resubmit(form, message);
        handled = true;
        break;
      }
      if (kind === "password_rules" && form && run.passwordGenerated && passwordRetries < MAX_PASSWORD_RETRIES) {
        passwordRetries++;
        seen.add(message);
        run.step("the site refused the generated password; generating one to its stated rules");
        await run.regeneratePassword(message);
        await resubmit(form, message);
        handled = true;
        break;
      }
      if (form && (kind !== "other" || refusalCode(message) !== null)) throw new LoginFlowError("signup_rejected", message);
    }
    if (handled) continue;

    if (accountMailRead && linkOpened && passwordSets === 0 && form && isSetPasswordForm(form)) {
      passwordSets++;
      for (const m of signals.messages) seen.add(m);
      await run.setPassword(form);
      stopAt = until();
      successSeen = false;
      continue;
    }
    const pageText = loginScans.map((s) => s.reading.text).join("\n");
    if (run.passwordless && !accountMailRead && !form && (signals.confirmByEmail || ACCOUNT_MAILED.test(pageText))) {
      // Created without a password: the site mails one, or a link to set it (its login form may be shown beside).
      accountMailRead = true;
      const mail = await accountMail();
      for (const m of signals.messages) seen.add(m);
      if ("password" in mail) {
        run.step("read the password from the email");
        run.takeMailedPassword(mail.password);
        return { kind: "login", verified: true };
      }
      linkOpened = true;
      run.step("open the emailed link");
      watch.resetVerdict();
      await watch.openEmailedLink(mail.link, deadline, "link");
      stopAt = until();
      successSeen = false;
      continue;
    }
    if (form && !verified) {
      if (fresh.length > 0) {
        // A message without known words counts once the page has settled on it.
        const first = fresh[0]!;
        if (!unsettled || unsettled.message !== first) unsettled = { message: first, at: Date.now() };
        else if (Date.now() - unsettled.at >= MESSAGE_SETTLE_MS) throw new LoginFlowError("signup_rejected", first);
      } else if (form.reading.validation) {
        throw new LoginFlowError("signup_rejected", `the signup form was not sent: ${form.reading.validation}`);
      }
    } else if (signals.otpPrompt && !signals.passwordShown) {
      const prompt = loginScans.find((s) => s.reading.otp.length > 0);
      if (codeAnswered && fresh.length > 0) throw new LoginFlowError("verification_failed", `the site refused the confirmation code: ${fresh[0]}`);
      if (!codeAnswered && prompt) {
        codeAnswered = true;
        for (const m of signals.messages) seen.add(m);
        await answerOtp(page, prompt, () => fromInbox("code"), (name) => run.step(name));
        stopAt = until();
        successSeen = false;
        continue;
      }
    } else if (signals.confirmByEmail && !linkOpened && !signals.passwordShown) {
      const link = await fromInbox("link");
      linkOpened = true;
      for (const m of signals.messages) seen.add(m);
      run.step("open the confirmation link");
      watch.resetVerdict();
      await watch.openEmailedLink(link, deadline, "confirmation link");
      stopAt = until();
      successSeen = false;
      continue;
    } else if (linkOpened && watch.documentStatus >= 400) {
      const said = loginScans.flatMap((s) => s.reading.text.split(/\n+/)).map((t) => t.trim()).find((t) => EXPIRED.test(t) || /invalid/i.test(t));
      throw new LoginFlowError("verification_failed", `the site refused the confirmation link: ${said ?? `HTTP ${watch.documentStatus}`}`);
    } else if (signals.passwordShown) {
      // The new account is to sign in on the login form the site shows now: another field than the one the
      // signup went out with, on two polls (a signup form re-rendering is not a login form).
      const login = loginScans.find((s) => s.reading.password);
      const same = !!login && !!run.sentPassword && login.key === run.sentPassword.frame && login.reading.password!.join("\u0000") === run.sentPassword.path;
      loginShown = !same && signupScans.length > 0 ? loginShown + 1 : 0;
      if (loginShown >= 2) return { kind: "login", verified };
    } else {
      const interstitial = signals.interstitial;
      if (interstitial && !signals.otpPrompt && interstitials < MAX_INTERSTITIALS) {
        interstitials++;
        run.step("answer interstitial question");
        await performStep(page, { action: "click", purpose: "next", frame: interstitial.key, path: interstitial.reading.interstitial! }, { identifier: "", password: "", additionalFields: {} }).catch(() => false);
        stopAt = until();
        continue;
      }
      let success = false;
      if (!signals.otpPrompt && !signals.confirmByEmail && loginScans.unreadable === 0 && watch.documentStatus < 400) {
        success = await sessionChanged(context, page, run.before!, signals.storage);
      }
      if (success && successSeen && !signals.identifierOnlyShown) return { kind: "signed-in" };
      successSeen = success;
      // "Your account is ready. Log in" on a page that set nothing: the user is to sign in.
      const offersLogin = loginScans.some((s) => s.reading.opener);
      loginOffered = !success && offersLogin ? loginOffered + 1 : 0;
      if (loginOffered >= LOGIN_OFFER_POLLS) return { kind: "login", verified };
    }
    if (Date.now() >= stopAt) {
      if (deadline.remaining() === 0) throw new LoginFlowError("timeout", "timed out waiting for the page after the signup");
      if (form && !verified) throw new LoginFlowError("login_unconfirmed", "the signup form is still shown, without a message");
      if (signals.otpPrompt || signals.confirmByEmail) throw new LoginFlowError("login_unconfirmed", "the site still asks to confirm the email");
      return { kind: "login", verified };
    }
    if (!successSeen) await sleep(150);
  }
}

/**
 * Creates an account on a page nobody scripted: find the signup form (behind a banner or a "Sign up"
 * link), fill email, username, password (generated to the page's rules when none was given) and its
 * confirmation, name fields, the invitation code and the terms box, send it, retry a taken username with
 * a variant, answer the confirmation code or link from our mailbox, and log in when the site does not
 * sign the new user in by itself. Returns the session and what the account is known by.
 */
export async function signup(page: Page, input: SignupInput, options: SignupOptions): Promise<SignupResult> {
  const deadline = new Deadline(options.timeoutMs);
  const watch = await PageWatch.attach(page, options.guard, input.signupUrl);
  const run = new SignupRun(page, input, options, watch);
  run.step("open signup page");
  await watch.open(input.signupUrl, deadline, input.signupUrlIsSecret ? "invitation link" : "signup page", input.signupUrlIsSecret);
  const form = await run.findForm(deadline);
  await run.fillAndSubmit(form);
  // Where it signs in next time, without a query or fragment (a confirmation token); never an invitation link.
  const fallback = () => run.loginLink ?? (input.signupUrlIsSecret ? new URL(input.signupUrl).origin : input.signupUrl);
  try {
    return await finishSignup(page, watch, run, input, options, deadline, fallback);
  } catch (err) {
    // The site refused the account: nothing was created. Anything else may have left one behind.
    if (!(err instanceof LoginFlowError) || SITE_REFUSALS.has(err.code) || !run.identifier) throw err;
    const account = { email: run.email, username: run.username, password: run.password, passwordGenerated: run.passwordGenerated };
    throw new SignupUnfinishedError(err, { ...account, identifier: run.identifier, loginUrl: pageOnly(fallback()) });
  }
}

// Refusals that mean the site created no account.
const SITE_REFUSALS: ReadonlySet<string> = new Set(["signup_rejected", "account_exists"]);
const pageOnly = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

/** After the form went out: the site's verdict, its confirmation, and a login when it signed nobody in. */
async function finishSignup(page: Page, watch: PageWatch, run: SignupRun, input: SignupInput, options: SignupOptions, deadline: Deadline, fallback: () => string): Promise<SignupResult> {
  watch.check();
  run.step("read verdict");
  const verdict = await awaitSignupVerdict(run, page, watch, input, deadline);
  const identifier = run.identifier!;
  const account = { email: run.email, username: run.username, password: run.password, passwordGenerated: run.passwordGenerated, identifier };

  if (verdict.kind === "signed-in") {
    run.step("capture session");
    const session = await captureState(page.browserContext(), page, watch.visited, watch.documentOrigins);
    return { ...account, session, loginUrl: pageOnly(fallback()), signedInBy: "signup" };
  }
  run.step("the site did not sign the new account in; logging in");
  const login = { loginUrl: page.url(), identifier, password: run.password, inbox: input.inbox, inboxWaitMs: input.inboxWaitMs };
  const loginOptions = { guard: options.guard, timeoutMs: deadline.remaining(), onStep: options.onStep };
  const signIn = async (): Promise<PasswordLoginResult> => {
    try {
      return await signInOnPage(page, watch, login, loginOptions, deadline);
    } catch (err) {
      // A page with nothing to sign in on: the signup page's own "Log in" link leads there.
      if (!(err instanceof LoginFlowError && err.code === "form_not_found" && run.loginLink)) throw err;
      run.step("open the login page");
      await watch.open(run.loginLink, deadline, "login page");
      return await signInOnPage(page, watch, { ...login, loginUrl: run.loginLink }, loginOptions, deadline);
    }
  };
  try {
    const result = await signIn();
    return { ...account, session: result.session, loginUrl: pageOnly(result.loginPage), signedInBy: "login" };
  } catch (err) {
    // A mailed temporary password: its first login may ask for a new one before it signs the account in.
    const form = run.passwordMailed && err instanceof LoginFlowError && err.code !== "invalid_credentials" ? bestForm(await scanSignup(page).catch(() => [])) : null;
    if (!form || !isSetPasswordForm(form)) throw err;
    const session = await replaceTemporaryPassword(run, page, watch, form, deadline);
    return { ...account, password: run.password, session, loginUrl: pageOnly(fallback()), signedInBy: "login" };
  }
}

/** Sets a new password where the first login with a mailed one asks for it, and waits until the account is signed in. */
async function replaceTemporaryPassword(run: SignupRun, page: Page, watch: PageWatch, form: SignupScan, deadline: Deadline): Promise<SessionResponse> {
  run.step("the site asks for a new password");
  await run.setPassword(form);
  const stopAt = Date.now() + Math.min(SETTLE_MS, deadline.remaining());
  let retries = 0;
  let signedIn = false;
  for (;;) {
    await page.waitForNetworkIdle({ idleTime: 250, timeout: 1000 }).catch(() => undefined);
    watch.check();
    const [again, scans] = await Promise.all([scanSignup(page).catch(() => []), scanPage(page, run.identifier ?? "")]);
    const shown = bestForm(again);
    const signals = mergeSignals(scans);
    const refusal = signals.messages.find((m) => !PROGRESS.test(m));
    if (shown && isSetPasswordForm(shown) && refusal) {
      if (!run.passwordGenerated || retries >= MAX_PASSWORD_RETRIES) throw new LoginFlowError("verification_failed", `the site refused the new password: ${refusal}`);
      retries++;
      await run.setPassword(shown, refusal);
      continue;
    }
    const now = !shown && !signals.passwordShown && scans.unreadable === 0 && (await sessionChanged(page.browserContext(), page, run.before!, signals.storage));
    // Signed in on two polls in a row, as the signup verdict asks.
    if (now && signedIn) return captureState(page.browserContext(), page, watch.visited, watch.documentOrigins);
    signedIn = now;
    if (Date.now() >= stopAt) throw new LoginFlowError("login_unconfirmed", "the site asked for a new password and did not sign the account in after it was set");
    if (!now) await sleep(150);
  }
}
