import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { signInOnPage } from "../login/password-login";
import type { PageWatch } from "../page/page-watch";
import type { SignupInput, SignupOptions, SignupResult } from "./signup";
import { openConfirmationLink, signupMail } from "./signup-mail";
import type { SignupVerdict } from "./signup-past-form";
import type { SignupRun } from "./signup-run";
import { bestForm, isSetPasswordForm, scanSignup } from "./signup-scan";
import { NOT_ACTIVATED } from "./signup-verdicts";
import { replaceTemporaryPassword } from "./temporary-password";

/** What the account is known by once the signup went out (the result's fields but its session). */
export interface SignupAccount {
  kind: "signup";
  email: string | null;
  username: string | null;
  password: string;
  passwordGenerated: boolean;
  identifier: string;
}

/** Where an account signs in, without a query or fragment (a confirmation token). */
export const pageOnly = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

/**
 * The new account logs in when the site signed nobody in: on the site's login page, with its email, else
 * its username; a refusal that may mean the account waits for its email confirmed follows the confirmation
 * link; a mailed temporary password is replaced where its first login asks.
 */
export async function loginAfterSignup(
  page: Page,
  watch: PageWatch,
  run: SignupRun,
  input: SignupInput,
  options: SignupOptions,
  deadline: Deadline,
  verdict: Extract<SignupVerdict, { kind: "login" }>,
  account: SignupAccount,
  fallback: () => string,
): Promise<SignupResult> {
  run.step("the site did not sign the new account in; logging in");
  if (verdict.leaveForm) {
    // The signup form is still on the page beside the site's "now log in": the login is on the site's login
    // page (its link on the signup page, else the site's home page, as such pages say), never through that form.
    const to = run.loginLink ?? new URL("/", page.url()).href;
    run.step("open the login page");
    await watch.open(to, deadline, "login page");
  }
  const loginOptions = {
    guard: options.guard,
    timeoutMs: deadline.remaining(),
    onStep: options.onStep,
    onMilestone: options.onMilestone,
    captchaSolver: options.captchaSolver,
    afterSignIn: options.afterSignIn,
  };
  let identifier = account.identifier;
  const signInAs = async (who: string): ReturnType<typeof signInOnPage> => {
    const login = {
      loginUrl: page.url(),
      identifier: who,
      password: run.password,
      inbox: input.inbox,
      inboxWaitMs: input.inboxWaitMs,
      handoff: input.handoff,
    };
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
  // The account signs in with what its form asked for, its email first; a site that takes only the login
  // name its form also asked for (a tracker) refuses the email: that name is the account's too.
  const signInByName = async (): ReturnType<typeof signInOnPage> => {
    try {
      return await signInAs(identifier);
    } catch (err) {
      const other = run.username && run.username !== identifier ? run.username : null;
      if (!(err instanceof LoginFlowError && err.code === "invalid_credentials" && other)) throw err;
      run.step("the site refused the new account's email as its login; signing in with its username");
      const result = await signInAs(other);
      identifier = other;
      run.identifier = other;
      return result;
    }
  };
  // The site's refusal of the password it just took is no wrong password: the account waits for its email
  // to be confirmed ("You haven't activated your account yet"), whether or not the page said so.
  const signIn = async (): ReturnType<typeof signInOnPage> => {
    const loginAt = page.url();
    try {
      return await signInByName();
    } catch (err) {
      if (!(err instanceof LoginFlowError) || !(err.code === "invalid_credentials" || NOT_ACTIVATED.test(err.message)))
        throw err;
      const said = `the site refused the new account's login: ${err.message}`;
      if (verdict.verified) throw new LoginFlowError("login_unconfirmed", `${said} (after its email was confirmed)`);
      const link = await signupMail(run, input, deadline).linkAfterRefusal(said);
      await openConfirmationLink(page, watch, link, deadline, (name) => run.step(name));
      run.step("open the login page");
      await watch.open(loginAt, deadline, "login page");
      return await signInByName().catch((again: unknown) => {
        throw again instanceof LoginFlowError && again.code === "invalid_credentials"
          ? new LoginFlowError(
              "login_unconfirmed",
              `the site refused the new account's login after its email was confirmed: ${again.message}`,
            )
          : again;
      });
    }
  };
  try {
    const result = await signIn();
    return {
      ...account,
      identifier,
      session: result.session,
      loginUrl: pageOnly(result.loginPage),
      signedInBy: "login",
    };
  } catch (err) {
    // A mailed temporary password: its first login may ask for a new one before it signs the account in.
    const form =
      run.passwordMailed && err instanceof LoginFlowError && err.code !== "invalid_credentials"
        ? bestForm(await scanSignup(page).catch(() => []))
        : null;
    if (!form || !isSetPasswordForm(form)) throw err;
    const replaced = await replaceTemporaryPassword(run, page, watch, form, deadline);
    if (replaced !== "login")
      return {
        ...account,
        password: run.password,
        session: replaced,
        loginUrl: pageOnly(fallback()),
        signedInBy: "login",
      };
    run.step("logging in with the new password");
    const result = await signIn();
    return {
      ...account,
      identifier,
      password: run.password,
      session: result.session,
      loginUrl: pageOnly(result.loginPage),
      signedInBy: "login",
    };
  }
}
