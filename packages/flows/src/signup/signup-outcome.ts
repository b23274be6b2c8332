import { captureState, type Page } from "@authsvc/browser";
import type { SessionResponse } from "@authsvc/contracts";
import { type Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { type AccountMail, awaitAccountMail, awaitVerification } from "../inbox/await-verification";
import type { PageWatch } from "../page/page-watch";
import { answerOtp } from "../page/answer-otp";
import { EXPIRED, refusalCode } from "../page/refusal-words";
import { sessionChanged, snapshotSession } from "../page/session-snapshot";
import { performStep } from "../page/steps";
import { type FrameScan, mergeSignals, scanPage } from "../page/scan-page";
import type { SignupInput } from "./signup";
import { bestForm, isSetPasswordForm, scanSignup, type SignupRun, type SignupScan, usernameVariant } from "./signup-run";
import { ACCOUNT_MAILED, PROGRESS, signupRefusalOf } from "./signup-verdicts";

// How long the page may take to answer a submit, a code or a link before the flow decides.
const SETTLE_MS = 10_000;
// A message without known words is the site's refusal once it stayed this long.
const MESSAGE_SETTLE_MS = 1000;
// A formless, quiet page that offers "Log in" after this many polls is not going to sign the user in.
const LOGIN_OFFER_POLLS = 3;
const MAX_USERNAME_VARIANTS = 3;
const MAX_PASSWORD_RETRIES = 2;
const MAX_INTERSTITIALS = 3;

export type SignupVerdict = { kind: "signed-in" } | { kind: "login"; verified: boolean };

/**
 * Watches the page after the signup form went out until it tells what happened: a refusal (a taken
 * username is retried with a variant, a refused generated password with a new one), a confirmation by
 * code or link (answered from our inbox), a signed-in page, or a page that wants the new user to log in.
 * `mailed`: an account taken up later (`SignupRun.resume`), starting from the site's mail it waited for.
 */
export async function awaitSignupVerdict(run: SignupRun, page: Page, watch: PageWatch, input: SignupInput, deadline: Deadline, mailed?: AccountMail): Promise<SignupVerdict> {
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
  /** The site's mail for a passwordless account: true when it brought the password, else its link is open. */
  const followAccountMail = async (mail: AccountMail): Promise<boolean> => {
    accountMailRead = true;
    if ("password" in mail) {
      run.step("read the password from the email");
      run.takeMailedPassword(mail.password);
      return true;
    }
    linkOpened = true;
    run.step("open the emailed link");
    watch.resetVerdict();
    await watch.openEmailedLink(mail.link, deadline, "link");
    stopAt = until();
    successSeen = false;
    return false;
  };
  // An account taken up later, with the mail it waited for.
  if (mailed && (await followAccountMail(mailed))) return { kind: "login", verified: true };

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
    // The set-password form is gone and nothing refused it: the site took the password.
    if (passwordSets > 0 && !(form && isSetPasswordForm(form)) && fresh.length === 0 && loginScans.unreadable === 0 && watch.documentStatus < 400) {
      run.acceptPassword();
    }

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
      const mail = await accountMail();
      for (const m of signals.messages) seen.add(m);
      if (await followAccountMail(mail)) return { kind: "login", verified: true };
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
      // New cookies alone do not tell: sites re-issue them on every page ("Registration complete.
      // Redirecting…"). The page must also show the account signed in (its sign-out control or account
      // menu); else the new account logs in, and the login's verdict decides.
      if (!signals.signedIn) success = false;
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
 * Sets a new password where the first login with a mailed one asks for it. Returns the session once the
 * page shows the account signed in (a sign-out control and new session state since the password was set,
 * on two polls), or `"login"` when the site took the password and offers to log in with it.
 */
export async function replaceTemporaryPassword(run: SignupRun, page: Page, watch: PageWatch, form: SignupScan, deadline: Deadline): Promise<SessionResponse | "login"> {
  run.step("the site asks for a new password");
  const context = page.browserContext();
  const before = await snapshotSession(context, page, run.identifier ?? "");
  // What the page said before ("You must set a new password") is no refusal of the one we set.
  const seen = new Set(before.messages);
  await run.setPassword(form);
  const stopAt = Date.now() + Math.min(SETTLE_MS, deadline.remaining());
  let retries = 0;
  let signedIn = false;
  let loginOffered = 0;
  for (;;) {
    await page.waitForNetworkIdle({ idleTime: 250, timeout: 1000 }).catch(() => undefined);
    watch.check();
    const [again, scans] = await Promise.all([scanSignup(page).catch(() => []), scanPage(page, run.identifier ?? "")]);
    const shown = bestForm(again);
    const setForm = !!shown && isSetPasswordForm(shown);
    const signals = mergeSignals(scans);
    const refusal = signals.messages.find((m) => !seen.has(m) && !PROGRESS.test(m));
    if (setForm && refusal) {
      if (!run.passwordGenerated || retries >= MAX_PASSWORD_RETRIES) throw new LoginFlowError("verification_failed", `the site refused the new password: ${refusal}`);
      retries++;
      seen.add(refusal);
      await run.setPassword(shown!, refusal);
      continue;
    }
    const took = !setForm && !refusal && scans.unreadable === 0 && watch.documentStatus < 400;
    if (took) run.acceptPassword();
    const now =
      took &&
      !signals.passwordShown &&
      !signals.otpPrompt &&
      !signals.confirmByEmail &&
      !signals.identifierOnlyShown &&
      !!signals.signedIn &&
      (await sessionChanged(context, page, before, signals.storage));
    // Signed in on two polls in a row, as the signup verdict asks.
    if (now && signedIn) return captureState(context, page, watch.visited, watch.documentOrigins);
    signedIn = now;
    // "Your password was changed. Log in": the account signs in with its new password.
    loginOffered = took && !now && (signals.passwordShown || scans.some((s) => s.reading.opener)) ? loginOffered + 1 : 0;
    if (loginOffered >= 2) return "login";
    if (Date.now() >= stopAt) throw new LoginFlowError("login_unconfirmed", "the site asked for a new password and did not sign the account in after it was set");
    if (!now) await sleep(150);
  }
}
