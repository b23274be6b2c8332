import { oauthMethodFor, type LoginSecret, type OAuthSignupJobInput } from "@authsvc/contracts";
import { oauthLogin, type FlowOptions, type OAuthLoginResult, type OAuthSignupDetails } from "@authsvc/flows";
import type { OpenedJob, SignupSuccess } from "@authsvc/jobs";
import { totpOf, type BrowserRun, type RunHooks } from "../browser-run";

/**
 * Signs in through the provider's button with the provider account, starting from the provider session
 * this account kept (per org and collection), and keeps the one it ends with.
 */
export async function runOAuth(
  run: BrowserRun,
  job: OpenedJob,
  input: Extract<LoginSecret, { provider: string }>,
  { onFailurePage, ...hooks }: RunHooks,
  signup?: OAuthSignupDetails,
  afterSignIn?: FlowOptions["afterSignIn"],
): Promise<OAuthLoginResult> {
  const { config, guard, captchaSolver } = run.deps;
  const inbox = input.inbox ? run.inboxFor(job, input.inbox, hooks) : undefined;
  // A person answers what the provider asks that the request cannot (its authenticator's code).
  const handoff = run.handoffFor(job, hooks);
  const key = {
    orgId: job.orgId,
    scope: job.credential.collectionId ?? "",
    provider: input.provider,
    account: job.credential.username,
  };
  const waitMs =
    config.worker.jobTimeoutMs + (inbox ? config.mfa.waitMs : 0) + (handoff ? config.handoff.maxWaitMs : 0);
  const result = await run.providerAccounts.withAccount(key, job.id, waitMs, (kept) =>
    run
      .inPage(job, { inbox: !!inbox, handoff: !!handoff }, onFailurePage, (page, timeoutMs) => {
        handoff?.attach(page);
        return oauthLogin(
          page,
          {
            loginUrl: job.loginUrl,
            provider: input.provider,
            account: {
              identifier: job.credential.username,
              password: input.password,
              inbox,
              inboxWaitMs: config.mfa.waitMs,
              totp: totpOf(input.totpSecret),
              handoff,
            },
            providerCookies: kept,
            signup,
          },
          { guard, timeoutMs, captchaSolver, afterSignIn, ...hooks },
        );
      })
      .finally(() => handoff?.close()),
  );
  return result;
}

/** Signs up through the provider's button with the provider account, then gives the site what its form still asks. */
export async function runOAuthSignup(
  run: BrowserRun,
  job: OpenedJob,
  input: OAuthSignupJobInput,
  hooks: RunHooks,
): Promise<SignupSuccess> {
  const { email } = input;
  const result = await runOAuth(
    run,
    job,
    {
      method: oauthMethodFor(input.provider),
      provider: input.provider,
      email,
      password: input.password,
      totpSecret: input.totpSecret,
      inbox: input.inbox,
    },
    hooks,
    {
      username: input.signup.username,
      name: input.signup.name,
      additionalFields: input.additionalFields,
    },
  );
  return {
    kind: "signup",
    email,
    username: result.username,
    password: input.password,
    passwordGenerated: false,
    identifier: email,
    loginUrl: result.loginPage,
    session: result.session,
    signedInBy: "signup",
  };
}
