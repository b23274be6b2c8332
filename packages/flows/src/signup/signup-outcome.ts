import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { type AccountMail, awaitAccountMail, awaitVerification } from "../inbox/await-verification";
import { openEmailedLink } from "../page/emailed-link";
import { AfterSubmit, type Poll, type PollResult } from "../page/after-submit";
import { answerOtp } from "../page/answer-otp";
import type { PageWatch } from "../page/page-watch";
import { EXPIRED, refusalCode } from "../page/refusal-words";
import type { SignupInput } from "./signup";
import { usernameVariant } from "./account-names";
import type { SignupRun } from "./signup-run";
import { bestForm, isSetPasswordForm, scanSignup, type SignupScan } from "./signup-scan";
import {
  ACCOUNT_MAILED,
  ACTIVATION_MAILED,
  NOW_SIGN_IN,
  PROGRESS,
  SIGNUP_DONE,
  signupRefusalOf,
} from "./signup-verdicts";

// A message without known words is the site's refusal once it stayed this long.
const MESSAGE_SETTLE_MS = 1000;
// A formless, quiet page that offers "Log in" after this many polls is not going to sign the user in.
const LOGIN_OFFER_POLLS = 3;
const MAX_USERNAME_VARIANTS = 3;
const MAX_PASSWORD_RETRIES = 2;

/**
 * `login` with `leaveForm`: the site said the account was made and is to sign in, on a page that still shows
 * its signup form: the login goes to the site's login page, never through that form.
 */
export type SignupVerdict = { kind: "signed-in" } | { kind: "login"; verified: boolean; leaveForm?: boolean };

/**
 * Watches the page after the signup form went out until it tells what happened: a refusal (a taken
 * username is retried with a variant, a refused generated password with a new one), a confirmation by
 * code or link (answered from our inbox), a signed-in page, or a page that wants the new user to log in.
 * `mailed`: an account taken up later (`SignupRun.resume`), starting from the site's mail it waited for.
 */
/** The page's text says what `words` match, in words that were not on the page before the submit. */
function newlySays(text: string, before: string[], ...words: RegExp[]): boolean {
  const said = words.map((w) => w.exec(text)?.[0]).find((m) => m !== undefined);
  return !!said && !before.some((sentence) => sentence.toLowerCase().includes(said.toLowerCase()));
}

export async function awaitSignupVerdict(
  run: SignupRun,
  page: Page,
  watch: PageWatch,
  input: SignupInput,
  deadline: Deadline,
  mailed?: AccountMail,
): Promise<SignupVerdict> {
  const watcher = new AfterSubmit(page, deadline, {
    identifier: () => run.email ?? run.username ?? "",
    before: run.before!,
    status: () => watch.documentStatus,
    navigation: watch,
    dialogs: () => watch.dialogs.splice(0),
    ignore: PROGRESS,
    read: () => scanSignup(page).catch((): SignupScan[] => []),
    check: () => watch.check(),
    onStep: (name) => run.step(name),
  });
  let usernameVariants = 0;
  let passwordRetries = 0;
  let codeAnswered = false;
  let linkOpened = false;
  // A passwordless signup: its mail was read, and the password set on the page its link opened.
  let accountMailRead = false;
  let passwordSets = 0;
  let unsettled = null as { message: string; at: number } | null;
  let loginOffered = 0;
  let loginShown = 0;
  const siteHost = new URL(input.signupUrl).hostname;
  const fromInbox = async (wanted: "code" | "link") => {
    if (!input.inbox) {
      throw new LoginFlowError(
        "verification_pending",
        `the site wants the new account's email confirmed by a ${wanted}, and no mail to ${run.email ?? "its address"} reaches the service`,
      );
    }
    run.step(`wait for the confirmation ${wanted} by email`);
    const waitMs = Math.min(input.inboxWaitMs ?? 120_000, deadline.remaining());
    return awaitVerification(
      input.inbox,
      wanted,
      run.since ?? (await input.inbox.mark()),
      siteHost,
      waitMs,
      "confirmation",
    ).catch((err: unknown) => {
      // The account exists and waits for its confirmation; the caller can still give it one.
      throw err instanceof LoginFlowError && err.code === "timeout"
        ? new LoginFlowError("verification_pending", err.message)
        : err;
    });
  };
  const accountMail = async (): Promise<AccountMail> => {
    if (!input.inbox) {
      throw new LoginFlowError(
        "verification_pending",
        `the site mails the new account's password (or a link to set it), and no mail to ${run.email ?? "its address"} reaches the service`,
      );
    }
    run.step("wait for the account's password or its link by email");
    const waitMs = Math.min(input.inboxWaitMs ?? 120_000, deadline.remaining());
    return awaitAccountMail(input.inbox, run.since ?? (await input.inbox.mark()), siteHost, waitMs).catch(
      (err: unknown) => {
        throw err instanceof LoginFlowError && err.code === "timeout"
          ? new LoginFlowError("verification_pending", err.message)
          : err;
      },
    );
  };
  const resubmit = async (form: SignupScan, refusal: string): Promise<"again"> => {
    watcher.seeWhileShown(refusal);
    await run.fillAndSubmit(form, deadline);
    watcher.restart();
    unsettled = null;
    return "again";
  };
  /** The site's mail for a passwordless account: true when it brought the password, else its link is open. */
  const followAccountMail = async (mail: AccountMail): Promise<boolean> => {
    accountMailRead = true;
    if ("password" in mail) {
      run.step("read the password from the email");
      run.takeMailedPassword(mail.password);
      if (mail.login) run.takeSiteLogin(mail.login);
      return true;
    }
    linkOpened = true;
    run.step("open the emailed link");
    watch.resetVerdict();
    await openEmailedLink(page, watch, mail.link, deadline, "link", (name) => run.step(name));
    watcher.restart();
    return false;
  };
  const confirmByLink = async () => {
    const link = await fromInbox("link");
    linkOpened = true;
    run.step("open the confirmation link");
    watch.resetVerdict();
    await openEmailedLink(page, watch, link, deadline, "confirmation link", (name) => run.step(name));
  };
  // An account taken up later, with the mail it waited for.
  if (mailed && (await followAccountMail(mailed))) return { kind: "login", verified: true };

  const judge = async (poll: Poll<SignupScan[]>): Promise<PollResult<SignupVerdict>> => {
    const { scans: loginScans, signals } = poll;
    const form = bestForm(poll.extra);
    const verified = codeAnswered || linkOpened;
    if (signals.captcha) throw new LoginFlowError("captcha_blocked", "the site asked for a CAPTCHA");
    // The site's words that the account was made are never its refusal ("The signup was successful! You can
    // now go to the home page and log in to the system." above the form drawn again).
    const done = poll.fresh.find((m) => SIGNUP_DONE.test(m) || NOW_SIGN_IN.test(m));
    const fresh = poll.fresh.filter((m) => m !== done);
    const pageText = loginScans.map((s) => s.reading.text).join("\n");
    const saysNewly = (...words: RegExp[]) => newlySays(pageText, run.before?.sentences ?? [], ...words);
    const saysDone = !!done || (!!form && !verified && poll.fresh.length === 0 && saysNewly(SIGNUP_DONE, NOW_SIGN_IN));
    // "Account was successfully created. An email containing the instructions to activate your account was
    // sent to …" above the site's login form: the account signs in once its link is opened, not before.
    // A code asked for on the page is answered where the page asks for it (below), never as a link.
    const activationMailed =
      !verified &&
      !run.passwordless &&
      !signals.otpPrompt &&
      (poll.fresh.some((m) => ACTIVATION_MAILED.test(m)) || saysNewly(ACTIVATION_MAILED));
    if (activationMailed && (!form || saysDone)) return watcher.act(poll, confirmByLink);
    if (saysDone && form && !verified && !signals.confirmByEmail && !signals.otpPrompt) {
      run.step("the site says the account was made; signing in");
      return { verdict: { kind: "login", verified, leaveForm: true } };
    }

    for (const message of fresh) {
      if (verified) {
        const code = refusalCode(message);
        const refused =
          code === "invalid_credentials" ||
          EXPIRED.test(message) ||
          (accountMailRead && !passwordSets && /\binvalid\b/i.test(message));
        if (refused)
          throw new LoginFlowError(
            "verification_failed",
            `the site refused the ${accountMailRead ? "set-password" : "confirmation"} ${codeAnswered ? "code" : "link"}: ${message}`,
          );
        if (passwordSets > 0 && form && isSetPasswordForm(form)) {
          // The site refused the password set on its page: a generated one is made again to its words.
          if (input.password || passwordSets > MAX_PASSWORD_RETRIES)
            throw new LoginFlowError("verification_failed", `the site refused the new password: ${message}`);
          watcher.see(message);
          passwordSets++;
          await run.setPassword(form, message);
          watcher.restart(false);
          return "again";
        }
        continue;
      }
      const kind = signupRefusalOf(message);
      // Only the form shown again is a refusal: a page past it may say "registered" in a welcome.
      if (kind === "account_exists" && form) throw new LoginFlowError("account_exists", message);
      if (kind === "username_taken" && form && run.username && usernameVariants < MAX_USERNAME_VARIANTS) {
        usernameVariants++;
        const taken = run.username;
        run.username = usernameVariant(taken);
        run.step(`username taken; trying ${run.username}`);
        return resubmit(form, message);
      }
      if (kind === "password_rules" && form && run.passwordGenerated && passwordRetries < MAX_PASSWORD_RETRIES) {
        passwordRetries++;
        run.step("the site refused the generated password; generating one to its stated rules");
        await run.regeneratePassword(message);
        return resubmit(form, message);
      }
      if (form && (kind !== "other" || refusalCode(message) !== null))
        throw new LoginFlowError("signup_rejected", message);
      // The signup form gone, and a page that shows no account says no ("That invitation code is not valid."
      // above a login form): the site made no account, and a login would only be refused.
      if (!form && !signals.signedIn && refusalCode(message) === "invalid_credentials")
        throw new LoginFlowError("signup_rejected", message);
    }
    // The set-password form is gone and nothing refused it: the site took the password.
    if (
      passwordSets > 0 &&
      !(form && isSetPasswordForm(form)) &&
      fresh.length === 0 &&
      loginScans.unreadable === 0 &&
      watch.documentStatus < 400
    ) {
      run.acceptPassword();
    }

    if (accountMailRead && linkOpened && passwordSets === 0 && form && isSetPasswordForm(form)) {
      passwordSets++;
      return watcher.act(poll, () => run.setPassword(form));
    }
    if (run.passwordless && !accountMailRead && !form && (signals.confirmByEmail || ACCOUNT_MAILED.test(pageText))) {
      // Created without a password: the site mails one, or a link to set it (its login form may be shown beside).
      const mail = await accountMail();
      watcher.seeShown(poll);
      if (await followAccountMail(mail)) return { verdict: { kind: "login", verified: true } };
      return "again";
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
      if (codeAnswered && fresh.length > 0)
        throw new LoginFlowError("verification_failed", `the site refused the confirmation code: ${fresh[0]}`);
      if (!codeAnswered && prompt) {
        codeAnswered = true;
        return watcher.act(poll, () =>
          answerOtp(
            page,
            prompt,
            () => fromInbox("code"),
            (name) => run.step(name),
          ),
        );
      }
    } else if (signals.confirmByEmail && !linkOpened && !signals.passwordShown) {
      return watcher.act(poll, confirmByLink);
    } else if (linkOpened && watch.documentStatus >= 400) {
      const said = loginScans
        .flatMap((s) => s.reading.text.split(/\n+/))
        .map((t) => t.trim())
        .find((t) => EXPIRED.test(t) || /invalid/i.test(t));
      throw new LoginFlowError(
        "verification_failed",
        `the site refused the confirmation link: ${said ?? `HTTP ${watch.documentStatus}`}`,
      );
    } else if (signals.passwordShown) {
      // The new account is to sign in on the login form the site shows now: another field than the one the
      // signup went out with, on two polls (a signup form re-rendering is not a login form).
      const login = loginScans.find((s) => s.reading.password);
      const same =
        !!login &&
        !!run.sentPassword &&
        login.key === run.sentPassword.frame &&
        login.reading.password!.join("\u0000") === run.sentPassword.path;
      loginShown = !same && poll.extra.length > 0 ? loginShown + 1 : 0;
      if (loginShown >= 2) return { verdict: { kind: "login", verified } };
    } else {
      if (!signals.otpPrompt && (await watcher.answerInterstitial(poll))) {
        watcher.restart(false);
        return "again";
      }
      // New cookies alone do not tell: sites re-issue them on every page ("Registration complete.
      // Redirecting…"). The page must also show the account signed in (its sign-out control or account
      // menu); else the new account logs in, and the login's verdict decides.
      // Strong evidence: the account shown, with state beyond what rotates on its own (session-evidence).
      const success = !!signals.signedIn && (await watcher.newSession(poll)) === "strong";
      if (success && poll.successBefore && !signals.identifierOnlyShown) return { verdict: { kind: "signed-in" } };
      // "Your account is ready. Log in" on a page that set nothing: the user is to sign in.
      const offersLogin = loginScans.some((s) => s.reading.opener);
      loginOffered = !success && offersLogin ? loginOffered + 1 : 0;
      if (loginOffered >= LOGIN_OFFER_POLLS) return { verdict: { kind: "login", verified } };
      return { success };
    }
    return "wait";
  };
  return watcher.watch(judge, ({ extra, signals }): SignupVerdict => {
    const form = bestForm(extra);
    const verified = codeAnswered || linkOpened;
    if (deadline.remaining() === 0)
      throw new LoginFlowError("timeout", "timed out waiting for the page after the signup");
    if (form && !verified)
      throw new LoginFlowError("login_unconfirmed", "the signup form is still shown, without a message");
    if (signals.otpPrompt || signals.confirmByEmail)
      throw new LoginFlowError("login_unconfirmed", "the site still asks to confirm the email");
    return { kind: "login", verified };
  });
}
