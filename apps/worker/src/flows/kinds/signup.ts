import type { Page, VirtualPasskey } from "@authsvc/browser";
import type { SignupJobInput } from "@authsvc/contracts";
import { enrolPasskey, LoginFlowError, signup, type Deadline, type PageWatch } from "@authsvc/flows";
import type { OpenedJob, SignupSuccess } from "@authsvc/jobs";
import type { BrowserRun, RunHooks } from "../browser-run";
import { runOAuthSignup } from "./oauth";
import { confirmPasskey } from "./passkey";

/** Kind `signup`: creates the account (through the provider's button for `oauth`), and its passkey when asked. */
export async function runSignup(
  run: BrowserRun,
  job: OpenedJob,
  input: SignupJobInput,
  { onFailurePage, ...hooks }: RunHooks,
): Promise<SignupSuccess> {
  const { config, guard, captchaSolver } = run.deps;
  if (input.method === "oauth") return runOAuthSignup(run, job, input, { ...hooks, onFailurePage });
  const inbox = input.inbox ? run.inboxFor(job, input.inbox, hooks) : undefined;
  const handoff = run.handoffFor(job, hooks);
  // `createPasskey`: added once the account signed in. A site that offers none, or turns it down, leaves
  // the account as it is: the signup stands, without a passkey (the answer shows none).
  let passkey: VirtualPasskey | undefined;
  const afterSignIn = input.createPasskey
    ? async (page: Page, watch: PageWatch, deadline: Deadline) => {
        try {
          passkey = await enrolPasskey(page, watch, {}, deadline, hooks.onStep);
        } catch (err) {
          if (!(err instanceof LoginFlowError) || !["passkey_not_offered", "passkey_rejected"].includes(err.code))
            throw err;
          run.deps.log.info({ jobId: job.id, code: err.code, reason: err.message }, "the new account has no passkey");
        }
      }
    : undefined;
  const result = await run
    .inPage(job, { inbox: !!inbox, handoff: !!handoff }, onFailurePage, (page, timeoutMs) => {
      handoff?.attach(page);
      return signup(
        page,
        {
          signupUrl: input.signup.inviteLink ?? job.loginUrl,
          signupUrlIsSecret: !!input.signup.inviteLink,
          email: input.email,
          username: input.signup.username,
          password: input.password,
          name: input.signup.name,
          inviteToken: input.signup.inviteToken,
          additionalFields: input.additionalFields,
          inbox,
          inboxWaitMs: config.mfa.waitMs,
          handoff,
        },
        { guard, timeoutMs, captchaSolver, afterSignIn, ...hooks },
      );
    })
    .finally(() => handoff?.close());
  if (!passkey) return result;
  // The site's "added" is confirmed by a sign-in with it; one that does not sign in is not the account's.
  try {
    passkey = await confirmPasskey(run, job, { loginUrl: result.loginUrl, identifier: result.identifier }, passkey, {
      ...hooks,
      onFailurePage,
    });
  } catch (err) {
    if (!(err instanceof LoginFlowError)) throw err;
    run.deps.log.info(
      { jobId: job.id, code: err.code, reason: err.message },
      "the new account's passkey did not sign in; the signup stands without it",
    );
    return result;
  }
  return { ...result, passkey };
}
