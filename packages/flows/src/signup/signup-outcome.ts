import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import type { AccountMail } from "../inbox/await-verification";
import type { UnsettledMessage } from "../login/verdict/unsettled-message";
import { openEmailedLink } from "../page/emailed-link";
import { AfterSubmit, type Poll, type PollResult } from "../page/after-submit";
import { answerOtp } from "../page/answer-otp";
import type { PageWatch } from "../page/page-watch";
import type { SignupInput } from "./signup";
import { usernameVariant } from "./account-names";
import { readSignupDone } from "./signup-done";
import { openConfirmationLink, signupMail } from "./signup-mail";
import { readSignupMessage } from "./signup-message";
import { readSignupPage } from "./signup-page";
import type { SignupRun } from "./signup-run";
import { bestForm, isSetPasswordForm, scanSignup, type SignupScan } from "./signup-scan";
import { PROGRESS } from "./signup-verdicts";
import {
  type PastFormFacts,
  readAccountPage,
  type SignupVerdict,
  signupTimeUp,
  weighPastForm,
} from "./signup-past-form";

export type { SignupVerdict };

/**
 * Watches the page after the signup form went out until it tells what happened: a refusal (a taken
 * username is retried with a variant, a refused generated password with a new one), a confirmation by
 * code or link (answered from our inbox), a signed-in page, or a page that wants the new user to log in.
 * `mailed`: an account taken up later (`SignupRun.resume`), starting from the site's mail it waited for.
 */
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
  let unsettled: UnsettledMessage | null = null;
  let loginOfferedAt: number | null = null;
  let loginShownAt: number | null = null;
  const siteMail = signupMail(run, input, deadline);
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
    const link = await siteMail.confirmation("link");
    linkOpened = true;
    await openConfirmationLink(page, watch, link, deadline, (name) => run.step(name));
  };
  // An account taken up later, with the mail it waited for.
  if (mailed && (await followAccountMail(mailed))) return { kind: "login", verified: true };

  const judge = async (poll: Poll<SignupScan[]>): Promise<PollResult<SignupVerdict>> => {
    const { scans: loginScans, signals } = poll;
    const form = bestForm(poll.extra);
    const verified = codeAnswered || linkOpened;
    if (signals.captcha) throw new LoginFlowError("captcha_blocked", "the site asked for a CAPTCHA");
    const pageText = loginScans.map((s) => s.reading.text).join("\n");
    const { fresh, next: made } = readSignupDone(
      {
        fresh: poll.fresh,
        text: pageText,
        before: run.before?.sentences ?? [],
        form: !!form,
        otpPrompt: signals.otpPrompt,
        confirmByEmail: signals.confirmByEmail,
      },
      { verified, passwordless: run.passwordless },
    );
    if (made === "confirm-by-link") return watcher.act(poll, confirmByLink);
    if (made === "sign-in") {
      run.step("the site says the account was made; signing in");
      return { verdict: { kind: "login", verified, leaveForm: true } };
    }

    const shows = { form: !!form, setPasswordForm: !!form && isSetPasswordForm(form), signedIn: !!signals.signedIn };
    for (const message of fresh) {
      const read = readSignupMessage(message, shows, {
        codeAnswered,
        linkOpened,
        accountMailRead,
        passwordSets,
        usernameVariants,
        passwordRetries,
        passwordGiven: !!input.password,
        passwordGenerated: run.passwordGenerated,
        hasUsername: !!run.username,
      });
      if (read?.kind === "refused") throw new LoginFlowError(read.code, read.message);
      if (read?.kind === "set-password-again") {
        watcher.see(message);
        passwordSets++;
        await run.setPassword(form!, message);
        watcher.restart(false);
        return "again";
      }
      if (read?.kind === "username-variant") {
        usernameVariants++;
        run.username = usernameVariant(run.username!);
        run.step(`username taken; trying ${run.username}`);
        return resubmit(form!, message);
      }
      if (read?.kind === "regenerate-password") {
        passwordRetries++;
        run.step("the site refused the generated password; generating one to its stated rules");
        await run.regeneratePassword(message);
        return resubmit(form!, message);
      }
    }
    const account = readAccountPage(
      {
        form: !!form,
        setPasswordForm: shows.setPasswordForm,
        fresh: fresh.length,
        unreadable: loginScans.unreadable,
        status: watch.documentStatus,
        confirmByEmail: signals.confirmByEmail,
        text: pageText,
      },
      { passwordless: run.passwordless, accountMailRead, linkOpened, passwordSets },
    );
    if (account.acceptPassword) run.acceptPassword();
    if (account.next?.kind === "set-password") {
      passwordSets++;
      return watcher.act(poll, () => run.setPassword(form!));
    }
    if (account.next?.kind === "await-account-mail") {
      const mail = await siteMail.account();
      watcher.seeShown(poll);
      if (await followAccountMail(mail)) return { verdict: { kind: "login", verified: true } };
      return "again";
    }
    const login = loginScans.find((s) => s.reading.password);
    const now = Date.now();
    const read = readSignupPage(
      {
        form: form ? { validation: form.reading.validation } : null,
        fresh,
        otpPrompt: signals.otpPrompt,
        codePrompt: loginScans.find((s) => s.reading.otp.length > 0) ?? null,
        confirmByEmail: signals.confirmByEmail,
        passwordShown: signals.passwordShown,
        loginPassword: login ? { frame: login.key, path: login.reading.password!.join("\u0000") } : null,
        signupFormsRead: poll.extra.length > 0,
        status: watch.documentStatus,
        text: loginScans.map((s) => s.reading.text),
        now,
      },
      { codeAnswered, linkOpened, sentPassword: run.sentPassword, unsettled, loginShownAt },
    );
    ({ unsettled, loginShownAt } = read);
    const { next } = read;
    if (next.kind === "refused") throw new LoginFlowError(next.code, next.message);
    if (next.kind === "wait") return "wait";
    if (next.kind === "sign-in") return { verdict: { kind: "login", verified } };
    if (next.kind === "confirm-by-link") return watcher.act(poll, confirmByLink);
    if (next.kind === "answer-code") {
      codeAnswered = true;
      return watcher.act(poll, () =>
        answerOtp(
          page,
          next.prompt,
          () => siteMail.confirmation("code"),
          (name) => run.step(name),
        ),
      );
    }
    // A page past the form, with no code or link asked: the rules ask the loop what they need to know.
    const past = {
      otpPrompt: signals.otpPrompt,
      interstitial: !!signals.interstitial,
      signedIn: !!signals.signedIn,
      successBefore: poll.successBefore,
      identifierOnlyShown: !!signals.identifierOnlyShown,
      offersLogin: loginScans.some((s) => s.reading.opener),
      now,
    };
    const facts: PastFormFacts = {};
    for (;;) {
      const weighed = weighPastForm(past, { loginOfferedAt }, facts);
      const decided = weighed.next;
      if (decided.kind === "answer-interstitial") {
        if (await watcher.answerInterstitial(poll)) {
          watcher.restart(false);
          return "again";
        }
        facts.interstitialUnanswered = true;
        continue;
      }
      if (decided.kind === "weigh-session") {
        facts.evidence = await watcher.newSession(poll);
        continue;
      }
      loginOfferedAt = weighed.loginOfferedAt;
      if (decided.kind === "signed-in") return { verdict: { kind: "signed-in" } };
      if (decided.kind === "sign-in") return { verdict: { kind: "login", verified } };
      return { success: decided.success };
    }
  };
  return watcher.watch(judge, ({ extra, signals }): SignupVerdict => {
    const verdict = signupTimeUp(
      {
        timedOut: deadline.remaining() === 0,
        form: !!bestForm(extra),
        otpPrompt: signals.otpPrompt,
        confirmByEmail: signals.confirmByEmail,
      },
      codeAnswered || linkOpened,
    );
    if (verdict.kind === "refused") throw new LoginFlowError(verdict.code, verdict.message);
    return verdict;
  });
}
