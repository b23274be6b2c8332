import { isOAuthSecret, type JobInput, type RememberedDevice, type SignupJobInput } from "@authsvc/contracts";
import {
  bringCookies,
  confirmAndSignIn,
  finishMailedSignup,
  LoginFlowError,
  parseLearnedFlow,
  type PasswordLoginResult,
  passwordLogin,
  rememberedDevice,
  sameFlow,
  type SignupResult,
} from "@authsvc/flows";
import type { LoginSuccess, OpenedJob, SignupSuccess } from "@authsvc/jobs";
import { totpOf, type BrowserRun, type RunHooks } from "../browser-run";
import { runOAuth } from "./oauth";
import { enrolment, keepEnrolled, runPasskeyLogin } from "./passkey";

/**
 * Kinds `login` (and a refresh's), `verify` and `passkey_enrol`: a sign-in with the input's method (a
 * password, a code by email or SMS, a magic link, a provider's button, a passkey); a verify confirms the
 * pending signup first, an enrolment adds a passkey once signed in.
 */
export async function runLogin(
  run: BrowserRun,
  job: OpenedJob,
  input: Exclude<JobInput, SignupJobInput>,
  { onFailurePage, ...hooks }: RunHooks,
): Promise<LoginSuccess | SignupSuccess> {
  const { config, db, guard, captchaSolver } = run.deps;
  if (input.kind !== "verify" && input.method === "passkey")
    return runPasskeyLogin(run, job, { ...hooks, onFailurePage });
  const enrol = enrolment(input, hooks);
  if (input.kind !== "verify" && isOAuthSecret(input)) {
    const result = await runOAuth(run, job, input, { ...hooks, onFailurePage }, undefined, enrol.afterSignIn);
    if (enrol.afterSignIn) await keepEnrolled(run, job, enrol.made(), { ...hooks, onFailurePage });
    return { kind: "login", session: result.session, source: "detected", changedFlow: null };
  }
  const learned = parseLearnedFlow(job.learnedFlow);
  const inbox = input.inbox ? run.inboxFor(job, input.inbox, hooks) : undefined;
  // The site's memory of this credential's browser, kept from its last login (a trusted device).
  let device = await db.credentialBrowsers.device(job.orgId, job.credential.id).catch((err: unknown) => {
    run.deps.log.warn({ jobId: job.id, err: String(err) }, "remembered device not read; the login starts without it");
    return null;
  });
  const loginInput = {
    loginUrl: job.loginUrl,
    identifier: job.credential.username,
    password: input.password,
    additionalFields: input.additionalFields,
    inbox,
    inboxWaitMs: config.mfa.waitMs,
    totp: totpOf(input.totpSecret),
  };
  const attempt = async () => {
    const handoff = run.handoffFor(job, hooks);
    return run
      .inPage<{ result: PasswordLoginResult | SignupResult; kept: RememberedDevice | null }>(
        job,
        { inbox: !!inbox, handoff: !!handoff },
        onFailurePage,
        async (page, timeoutMs, openContext) => {
          handoff?.attach(page);
          await bringCookies(page.browserContext(), device?.cookies ?? []);
          // An enrolment adds a passkey in the signed-in page, then the session is captured; the key is
          // confirmed by a sign-in with it once this context is done (keepEnrolled).
          const options = {
            guard,
            timeoutMs,
            learned,
            captchaSolver,
            afterSignIn: enrol.afterSignIn,
            openContext,
            ...hooks,
          };
          const signIn = () => {
            if (input.kind !== "verify") return passwordLogin(page, { ...loginInput, handoff }, options);
            const { confirmation } = input;
            const given =
              "inboxSince" in confirmation ? { inboxSince: new Date(confirmation.inboxSince) } : confirmation;
            if (input.awaitsPassword && !("code" in given)) {
              // The signup's own ending, with the mail it waited for: the password it brings, or set on its link.
              return finishMailedSignup(
                page,
                {
                  loginUrl: job.loginUrl,
                  identifier: job.credential.username,
                  email: input.email,
                  password: input.password,
                  inbox,
                },
                given,
                { guard, timeoutMs, ...hooks },
              );
            }
            return confirmAndSignIn(page, { ...loginInput, handoff }, given, options);
          };
          const result = await signIn();
          if (result.kind === "signup") return { result, kept: null };
          // What the site now remembers this browser by, for the next login (null: unchanged).
          const kept = await rememberedDevice(page, job.loginUrl, result.session.cookies, device, guard, {
            openContext,
          }).catch((err: unknown) => {
            run.deps.log.warn({ jobId: job.id, err: String(err) }, "remembered device not read off the session");
            return null;
          });
          if (kept)
            run.deps.log.debug(
              { jobId: job.id, kept: kept.cookies.length, passedOver: kept.passOver.length },
              "remembered device read off the session",
            );
          return { result, kept };
        },
      )
      .finally(() => handoff?.close());
  };
  let ran: Awaited<ReturnType<typeof attempt>>;
  try {
    ran = await attempt();
  } catch (err) {
    // The remembered device signed the browser in before the form showed (its cookies carried a session
    // after all): nothing was sent. It is forgotten, and the login runs as a new device's.
    if (!device?.cookies.length || !(err instanceof LoginFlowError) || err.code !== "form_not_found") throw err;
    run.deps.log.info(
      { jobId: job.id },
      "no login form with the remembered device; forgotten, and the login runs without it",
    );
    await db.credentialBrowsers.saveDevice(job.orgId, job.credential.id, null).catch(() => undefined);
    device = null;
    ran = await attempt();
  }
  const { result, kept } = ran;
  if (result.kind === "signup") return result;
  if (enrol.afterSignIn) await keepEnrolled(run, job, enrol.made(), { ...hooks, onFailurePage });
  // No flow: it could not be kept without a secret in it; nothing to store.
  const changedFlow = !result.flow || (learned && sameFlow(learned, result.flow)) ? null : result.flow;
  return { kind: "login", session: result.session, source: result.source, changedFlow, device: kept };
}
