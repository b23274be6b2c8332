import { type Page, captureState, type TargetGuard } from "@authsvc/browser";
import type { SignedUpAccount } from "@authsvc/contracts";
import { Deadline } from "../deadline";
import { LoginFlowError, SignupUnfinishedError } from "../flow-error";
import { type AccountMail, awaitAccountMail, type Inbox } from "../inbox/await-verification";
import { PageWatch } from "../page/page-watch";
import type { FlowMilestone, FlowOptions } from "../login/password-login";
import type { CaptchaSolver } from "../captcha/pass-captcha";
import type { Handoff } from "../handoff";
import { findLoginPage } from "./find-login-page";
import { findSignupForm } from "./find-signup-form";
import { loginAfterSignup, pageOnly } from "./signup-login";
import { awaitSignupVerdict } from "./signup-outcome";
import { SignupRun } from "./signup-run";

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
  /** A person who solves what the service cannot (a CAPTCHA on the form, a step of the sign-in after it); see `Handoff`. */
  handoff?: Handoff;
}

export interface SignupOptions {
  guard: TargetGuard;
  timeoutMs: number;
  onStep?: (step: string) => void;
  /** Called at the steps a job's clients follow (see FlowOptions). */
  onMilestone?: (milestone: FlowMilestone) => void;
  /** Awaited just before the signup form is sent (a job must never send it twice). */
  beforeSubmit?: () => Promise<void>;
  /** Answers CAPTCHA challenges on the form (see FlowOptions). */
  captchaSolver?: CaptchaSolver;
  /** What to do in the page once the new account signed in, before its state is captured (see FlowOptions). */
  afterSignIn?: FlowOptions["afterSignIn"];
}

/** The account created and the session it signed in with (the shape its job stores). */
export type SignupResult = SignedUpAccount;

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
  await watch.open(
    input.signupUrl,
    deadline,
    input.signupUrlIsSecret ? "invitation link" : "signup page",
    input.signupUrlIsSecret,
  );
  const form = await findSignupForm(page, deadline, (name) => run.step(name), input.additionalFields);
  await run.fillAndSubmit(form, deadline);
  // Where it signs in next time, without a query or fragment (a confirmation token); never an invitation link.
  const fallback = () => run.loginLink ?? (input.signupUrlIsSecret ? new URL(input.signupUrl).origin : input.signupUrl);
  return keepingTheAccount(run, fallback, () => finishSignup(page, watch, run, input, options, deadline, fallback));
}

/** An account a passwordless signup left waiting for the site's mail (`UnfinishedAccount.awaitsPassword`). */
export interface MailedSignupInput {
  /** Where the account signs in, as the credential keeps it. */
  loginUrl: string;
  /** What it signs in with: the email, else the username. */
  identifier: string;
  email?: string;
  /** The caller's password, to set on the page the link opens; else one is generated to its rules. */
  password?: string;
  /** Our mailbox (or the forwarding inbox) where the site's mail went. */
  inbox?: Inbox;
}

// The site's mail is in the inbox already, or not at all: this only covers a message being stored right now.
const INBOX_LOOK_MS = 3000;

/**
 * Finishes an account a passwordless signup left waiting for the site's mail: the set-password link the
 * caller read in their own mailbox, or the password or link that reached our inbox since `inboxSince`.
 * The link's page gets the password set as the signup would have, then the account signs in.
 */
export async function finishMailedSignup(
  page: Page,
  input: MailedSignupInput,
  mail: { link: string } | { inboxSince: Date },
  options: SignupOptions,
): Promise<SignupResult> {
  const deadline = new Deadline(options.timeoutMs);
  const watch = await PageWatch.attach(page, options.guard, input.loginUrl);
  const signupInput: SignupInput = {
    signupUrl: input.loginUrl,
    email: input.email,
    password: input.password || undefined,
    inbox: input.inbox,
  };
  const run = new SignupRun(page, signupInput, options, watch);
  // The site's page first, as a signup starts: what it sets for any visitor is not a session.
  run.step("open login page");
  await watch.open(input.loginUrl, deadline, "login page");
  await run.resume(input.identifier, input.loginUrl, "inboxSince" in mail ? mail.inboxSince : new Date());
  const mailed = "link" in mail ? { link: mail.link } : await accountMailIn(run, input, mail.inboxSince, deadline);
  const fallback = () => input.loginUrl;
  return keepingTheAccount(run, fallback, () =>
    finishSignup(page, watch, run, signupInput, options, deadline, fallback, mailed),
  );
}

/** The site's mail that reached our inbox since the signup: its password or the link to set one. */
async function accountMailIn(
  run: SignupRun,
  input: MailedSignupInput,
  since: Date,
  deadline: Deadline,
): Promise<AccountMail> {
  if (!input.inbox)
    throw new LoginFlowError(
      "verification_pending",
      "no mail to this account's address reaches the service; send the link from the site's mail",
    );
  run.step("look for the account's password or its link in the inbox");
  return awaitAccountMail(
    input.inbox,
    since,
    new URL(input.loginUrl).hostname,
    Math.min(INBOX_LOOK_MS, deadline.remaining()),
  ).catch((err: unknown) => {
    throw err instanceof LoginFlowError && err.code === "timeout"
      ? new LoginFlowError("verification_pending", err.message)
      : err;
  });
}

// Refusals that mean the site created no account.
const SITE_REFUSALS: ReadonlySet<string> = new Set(["signup_rejected", "account_exists"]);

/** Runs what follows the signup form; a failure that may have left an account behind carries it, with its password. */
async function keepingTheAccount(
  run: SignupRun,
  fallback: () => string,
  finish: () => Promise<SignupResult>,
): Promise<SignupResult> {
  try {
    return await finish();
  } catch (err) {
    // The site refused the account: nothing was created. Anything else may have left one behind.
    if (!(err instanceof LoginFlowError) || SITE_REFUSALS.has(err.code) || !run.identifier) throw err;
    const account = {
      email: run.email,
      username: run.username,
      password: run.password,
      passwordGenerated: run.passwordGenerated,
      awaitsPassword: run.awaitsPassword,
    };
    throw new SignupUnfinishedError(err, { ...account, identifier: run.identifier, loginUrl: pageOnly(fallback()) });
  }
}

/** After the form went out: the site's verdict, its confirmation, and a login when it signed nobody in. */
async function finishSignup(
  page: Page,
  watch: PageWatch,
  run: SignupRun,
  input: SignupInput,
  options: SignupOptions,
  deadline: Deadline,
  fallback: () => string,
  mailed?: AccountMail,
): Promise<SignupResult> {
  watch.check();
  run.step("read verdict");
  options.onMilestone?.("verifying");
  const verdict = await awaitSignupVerdict(run, page, watch, input, deadline, mailed);
  const account = {
    kind: "signup" as const,
    email: run.email,
    username: run.username,
    password: run.password,
    passwordGenerated: run.passwordGenerated,
    identifier: run.identifier!,
  };

  if (verdict.kind === "signed-in" && run.awaitsPassword) {
    // Signed in by the site's link alone: no password of the account is known to sign in again with.
    throw new LoginFlowError(
      "verification_failed",
      "the site signed the account in from its link without a password being set; no password is known for it",
    );
  }
  if (verdict.kind === "signed-in") {
    await options.afterSignIn?.(page, watch, deadline);
    run.step("capture session");
    const session = await captureState(page.browserContext(), page, watch.visited, watch.documentOrigins);
    // No page said where to log in: the signup page (a spent invitation) is no login page.
    const loginPage = run.loginLink ?? (await findLoginPage(page, options.guard, deadline, (name) => run.step(name)));
    return { ...account, session, loginUrl: pageOnly(loginPage ?? fallback()), signedInBy: "signup" };
  }
  if (run.awaitsPassword && verdict.verified) {
    // The site's link was opened and led to no page to set a password: a login would type none.
    throw new LoginFlowError(
      "verification_failed",
      "the site's link did not lead to a page to set the account's password, and no password came by email",
    );
  }
  return loginAfterSignup(page, watch, run, input, options, deadline, verdict, account, fallback);
}
