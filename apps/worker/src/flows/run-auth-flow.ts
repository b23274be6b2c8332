import {
  applyBrowserProfile,
  preparePagesLike,
  preparePagesOf,
  type BrowserContext,
  type BrowserHost,
  contextOptions,
  type VirtualPasskey,
  type BrowserProfile,
  chooseBrowserProfile,
  DEFAULT_PROFILE_REGION,
  type Page,
  type ProxyDoor,
  ProxyFailure,
  relocateBrowserProfile,
  type TargetGuard,
} from "@authsvc/browser";
import type { Config } from "@authsvc/config";
import {
  isOAuthMethod,
  type InboxRef,
  type JobEventType,
  type JobInput,
  type LoginSecret,
  oauthMethodFor,
  type RememberedDevice,
  type SignupJobInput,
} from "@authsvc/contracts";
import { freshTotpCode, parseTotpSecret } from "@authsvc/crypto";
import { type Database, ProxyGoneError, type RunProxy } from "@authsvc/db";
import {
  bringCookies,
  confirmAndSignIn,
  type Deadline,
  enrolPasskey,
  type PageWatch,
  passkeyLogin,
  finishMailedSignup,
  rememberedDevice,
  type CaptchaSolver,
  type FlowMilestone,
  type FlowOptions,
  LoginFlowError,
  oauthLogin,
  type OAuthLoginResult,
  type OAuthSignupDetails,
  parseLearnedFlow,
  type PasswordLoginResult,
  passwordLogin,
  sameFlow,
  signup,
  type SignupResult,
} from "@authsvc/flows";
import type { AuthJobs, LoginSuccess, OpenedJob, SignupSuccess } from "@authsvc/jobs";
import { jobHandoff } from "./flow-handoff";
import type { HandoffRelay, InboxEvents, JobEventFields, SingleFlight } from "@authsvc/queue";
import type { Logger } from "@authsvc/logging";
import { flowInbox } from "./flow-inbox";
import { ProviderAccounts } from "./provider-accounts";
import type { WorkerMetrics } from "../worker-metrics";

export interface FlowRunnerDeps {
  config: Config;
  db: Database;
  browser: BrowserHost;
  guard: TargetGuard;
  metrics: WorkerMetrics;
  /** Wake-ups of our inboxes (mail-in, SMS webhook), for flows that wait for a code or link. */
  inboxEvents: InboxEvents;
  /** Turns of provider accounts (one OAuth login at a time per account). */
  flight: SingleFlight;
  /** The operator's CAPTCHA solving service, when configured; without one a challenge ends in captcha_blocked. */
  captchaSolver?: CaptchaSolver;
  /** The job's life (the hand-off to a person records its question there). */
  jobs: AuthJobs;
  /** Aborted when the worker stops: a job waiting for a person ends at once. */
  stopping: AbortSignal;
  /** The hosted hand-off page's live view (frames out, the person's input in). */
  relay: HandoffRelay;
  log: Logger;
}

export type FlowHooks = {
  onStep: (step: string) => void;
  onMilestone: (milestone: FlowMilestone) => void;
  beforeSubmit: () => Promise<void>;
};
/**
 * The runner's own hooks: `onProgress` hears the steps the job's clients follow that the runner sees (the
 * page it opens, the inbox it waits on); `onFailurePage` sees the page a failed flow ended on, before its
 * context closes.
 */
export type RunHooks = FlowHooks & {
  onProgress: (type: JobEventType, fields?: JobEventFields) => void;
  onFailurePage?: (page: Page) => Promise<void>;
  /** The job waits for a person now (its queue entry reports progress, which wakes requests waiting for it). */
  onNeedsInput?: () => void;
};

// Past the flow's own deadline, how long we wait before closing the browser context under it.
const HARD_STOP_GRACE_MS = 5000;

/**
 * Runs the flow an opened job asks for (a login, a verify's confirmation then login, a signup) in a fresh
 * page, and returns its outcome in the terms of `@authsvc/jobs`. Secrets stay in this process: TOTP codes
 * are made just in time from the decrypted secret.
 */
export function createFlowRunner(deps: FlowRunnerDeps) {
  const { config, db, browser, guard, metrics, inboxEvents, captchaSolver } = deps;
  const providerAccounts = new ProviderAccounts(db, deps.flight, config.crypto.fingerprintKey);

  /**
   * Runs a flow under the job's time limit (the inbox wait on top when it may wait for a message, the
   * hand-off's when a person may answer), closing the context under a flow that overruns it.
   */
  /**
   * Runs `flow` in a fresh page of its own, through the org's proxy when it has one; `openContext` makes another
   * browser context that leaves the same way (a look at the site that must come from the login's address).
   */
  async function inPage<T>(
    job: OpenedJob,
    waits: { inbox?: boolean; handoff?: boolean },
    onFailurePage: RunHooks["onFailurePage"],
    flow: (page: Page, timeoutMs: number, openContext: () => Promise<BrowserContext>) => Promise<T>,
  ): Promise<T> {
    const timeoutMs =
      config.worker.jobTimeoutMs +
      (waits.inbox ? config.mfa.waitMs : 0) +
      (waits.handoff ? config.handoff.maxWaitMs : 0);
    const proxy = await proxyFor(job);
    return browser.withPage(
      async (page, door) => {
        metrics.activeLogins.inc();
        await showCredentialBrowser(job, page, proxy?.region ?? undefined);
        let timer: NodeJS.Timeout | undefined;
        const hardStop = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            reject(new LoginFlowError("timeout", "the login did not finish in time"));
            void page
              .browserContext()
              .close()
              .catch(() => undefined);
          }, timeoutMs + HARD_STOP_GRACE_MS);
        });
        try {
          if (door) {
            // The proxy answers before the site is shown anything: a proxy that refuses us is its own failure.
            const target = new URL(job.loginUrl);
            await door.check(target.hostname, Number(target.port || (target.protocol === "https:" ? 443 : 80)));
          }
          // Another context of this job shows the site the same browser as its page.
          const openContext = async () => {
            const context = await page.browser().createBrowserContext(contextOptions(door));
            preparePagesLike(context, page.browserContext());
            return context;
          };
          return await Promise.race([flow(page, timeoutMs, openContext), hardStop]);
        } catch (err) {
          // Still inside withPage: the context is open (unless the hard stop closed it) and the flow is done.
          await onFailurePage?.(page).catch(() => undefined);
          // The site could not be reached because the proxy failed: the proxy's failure, not the site's.
          if (
            door &&
            (err instanceof ProxyFailure ||
              (door.failure() &&
                (!(err instanceof LoginFlowError) ||
                  ["target_unreachable", "timeout", "form_not_found", "login_unconfirmed"].includes(err.code))))
          ) {
            throw proxyFailure(err, door);
          }
          throw err;
        } finally {
          clearTimeout(timer);
          metrics.activeLogins.dec();
        }
      },
      { upstream: proxy ? { url: proxy.url } : undefined },
    );
  }

  /**
   * The organization's proxy this run leaves through: the request's (a login names one or a pool), else the
   * one its credential kept; null: directly. Recorded on the credential (sticky).
   */
  async function proxyFor(job: OpenedJob): Promise<RunProxy | null> {
    const choice = "egress" in job.input && job.input.egress ? job.input.egress : {};
    try {
      const proxy = await db.proxies.forRun(job.orgId, job.credential, choice);
      if (proxy) job.credential.proxyId = proxy.id;
      return proxy;
    } catch (err) {
      if (err instanceof ProxyGoneError)
        throw new LoginFlowError("proxy_unreachable", `${err.message}; nothing was sent`, { retryable: false });
      throw err;
    }
  }

  /**
   * The browser this credential's runs show its site, chosen at its first run and kept (issue 28 §3): the
   * same system, languages, time zone and screen every time, and another than the organization's other
   * credentials show. A fault reading it leaves the page as the stealth layer set it up, for this run.
   */
  async function showCredentialBrowser(job: OpenedJob, page: Page, proxyRegion?: string): Promise<void> {
    try {
      let profile = await db.credentials.browserProfile<BrowserProfile>(
        job.orgId,
        job.credential.id,
        (taken) => chooseBrowserProfile(proxyRegion ?? DEFAULT_PROFILE_REGION, taken),
        job.credential.browserProfile,
      );
      // Moved to a proxy of another region: the same browser, its person's languages and time zone of that region.
      if (proxyRegion && (profile.region ?? DEFAULT_PROFILE_REGION) !== proxyRegion) {
        profile = relocateBrowserProfile(profile, proxyRegion);
        await db.credentials.saveBrowserProfile(job.orgId, job.credential.id, profile);
      }
      // The job's own copy follows: a second run of it (a retry without the remembered device) shows the same browser.
      job.credential.browserProfile = profile;
      await applyBrowserProfile(page, profile);
      // Every further page of the job (the session check's tab, a remembered device's looks) too.
      const chosen = profile;
      preparePagesOf(page.browserContext(), (other) =>
        applyBrowserProfile(other, chosen).catch((err: unknown) => {
          deps.log.warn(
            { jobId: job.id, err: String(err) },
            "the credential's browser profile not applied to a further page; it shows the default browser",
          );
        }),
      );
    } catch (err) {
      deps.log.warn(
        { jobId: job.id, err: String(err) },
        "the credential's browser profile not applied; this run shows the default browser",
      );
    }
  }

  /**
   * Signs in through the provider's button with the provider account, starting from the provider session
   * this account kept (per org and collection), and keeps the one it ends with.
   */
  /** The job's inbox as its flow reads it: its clients are told while the flow waits there, and when a message came. */
  function inboxFor(job: OpenedJob, ref: InboxRef, hooks: Pick<RunHooks, "onProgress">) {
    return flowInbox(db, inboxEvents, job.orgId, ref, {
      waiting: () =>
        hooks.onProgress(
          ref.kind === "email" ? "waiting_for_email" : "waiting_for_sms",
          ref.kind === "email" ? { address: ref.address } : { number: ref.number },
        ),
      received: () => hooks.onProgress("verifying"),
    });
  }

  async function runOAuth(
    job: OpenedJob,
    input: Extract<LoginSecret, { provider: string }>,
    { onFailurePage, ...hooks }: RunHooks,
    signup?: OAuthSignupDetails,
    afterSignIn?: FlowOptions["afterSignIn"],
  ): Promise<OAuthLoginResult> {
    const inbox = input.inbox ? inboxFor(job, input.inbox, hooks) : undefined;
    // A person answers what the provider asks that the request cannot (its authenticator's code).
    const handoff = handoffFor(job, hooks);
    const key = {
      orgId: job.orgId,
      scope: job.credential.collectionId ?? "",
      provider: input.provider,
      account: job.credential.username,
    };
    const waitMs =
      config.worker.jobTimeoutMs + (inbox ? config.mfa.waitMs : 0) + (handoff ? config.handoff.maxWaitMs : 0);
    const result = await providerAccounts.withAccount(key, job.id, waitMs, (kept) =>
      inPage(job, { inbox: !!inbox, handoff: !!handoff }, onFailurePage, (page, timeoutMs) => {
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
              totp: input.totpSecret ? () => freshTotpCode(parseTotpSecret(input.totpSecret!)) : undefined,
              handoff,
            },
            providerCookies: kept,
            signup,
          },
          { guard, timeoutMs, captchaSolver, afterSignIn, ...hooks },
        );
      }).finally(() => handoff?.close()),
    );
    return result;
  }

  /**
   * A passkey the site just took is only as good as a sign-in with it: a site may answer "added" and keep
   * nothing (a passkey it holds until the owner confirms it by mail, a failed write behind a 200). So a new
   * passkey signs in once, in a context of its own, before it is reported; the key comes back with the
   * counter that sign-in reached. Throws the sign-in's error when it does not sign in.
   */
  async function confirmPasskey(
    job: OpenedJob,
    at: { loginUrl: string; identifier: string },
    key: VirtualPasskey,
    { onFailurePage, ...hooks }: RunHooks,
  ): Promise<VirtualPasskey> {
    hooks.onStep?.("sign in once with the new passkey, in a new browser context");
    const result = await inPage(job, {}, onFailurePage, (page, timeoutMs, openContext) =>
      passkeyLogin(
        page,
        { loginUrl: at.loginUrl, identifier: at.identifier, passkeys: [key] },
        { guard, timeoutMs, openContext, ...hooks },
      ),
    );
    return { ...key, signCount: result.used.signCount };
  }

  /** For an enrolment: the step that adds a passkey once the sign-in landed, and the key it made. */
  function enrolment(input: JobInput, hooks: Pick<RunHooks, "onStep">) {
    let made: VirtualPasskey | undefined;
    const afterSignIn =
      input.kind === "passkey_enrol"
        ? async (page: Page, watch: PageWatch, deadline: Deadline) => {
            made = await enrolPasskey(page, watch, { settingsUrl: input.enrol.settingsUrl }, deadline, hooks.onStep);
          }
        : undefined;
    return { afterSignIn, made: () => made };
  }

  /** Keeps the passkey an enrolment made, once it signed in (confirmPasskey). */
  async function keepEnrolled(job: OpenedJob, key: VirtualPasskey | undefined, hooks: RunHooks): Promise<void> {
    // A sign-in that never reached the step that adds one (a flow that does not call it) is no enrolment.
    if (!key) throw new LoginFlowError("internal_error", "the sign-in ended without adding a passkey");
    const confirmed = await confirmPasskey(
      job,
      { loginUrl: job.loginUrl, identifier: job.credential.username },
      key,
      hooks,
    );
    if (!(await db.passkeys.add(job.orgId, job.credential.id, confirmed, job.id)))
      throw new LoginFlowError("internal_error", "the credential went away while its passkey was added");
  }

  /**
   * Signs in with the credential's passkeys (loaded into the page's authenticator; none of another site is
   * offered), typing nothing; the counter the site saw is kept for the next sign-in.
   */
  async function runPasskeyLogin(job: OpenedJob, { onFailurePage, ...hooks }: RunHooks): Promise<LoginSuccess> {
    const held = await db.passkeys.keys(job.orgId, job.credential.id);
    const result = await inPage(job, {}, onFailurePage, (page, timeoutMs, openContext) =>
      passkeyLogin(
        page,
        { loginUrl: job.loginUrl, identifier: job.credential.username, passkeys: held.map((h) => h.key) },
        { guard, timeoutMs, openContext, ...hooks },
      ),
    );
    const used = held.find((h) => h.key.credentialId === result.used.credentialId);
    if (used) {
      await db.passkeys
        .used(job.orgId, job.credential.id, used.id, { ...used.key, signCount: result.used.signCount })
        .catch((err: unknown) => {
          deps.log.warn({ jobId: job.id, err: String(err) }, "the passkey's sign counter was not kept");
        });
    }
    return { session: result.session, source: "detected", changedFlow: null };
  }

  async function runLogin(
    job: OpenedJob,
    input: Exclude<JobInput, SignupJobInput>,
    { onFailurePage, ...hooks }: RunHooks,
  ): Promise<LoginSuccess | SignupSuccess> {
    if (input.kind !== "verify" && input.method === "passkey") return runPasskeyLogin(job, { ...hooks, onFailurePage });
    const enrol = enrolment(input, hooks);
    if (input.kind !== "verify" && isOAuthMethod(input.method)) {
      const result = await runOAuth(
        job,
        input as Extract<LoginSecret, { provider: string }>,
        { ...hooks, onFailurePage },
        undefined,
        enrol.afterSignIn,
      );
      if (enrol.afterSignIn) await keepEnrolled(job, enrol.made(), { ...hooks, onFailurePage });
      return { session: result.session, source: "detected", changedFlow: null };
    }
    const learned = parseLearnedFlow(job.learnedFlow);
    const inbox = input.inbox ? inboxFor(job, input.inbox, hooks) : undefined;
    // The site's memory of this credential's browser, kept from its last login (a trusted device).
    let device = await db.credentials.device(job.orgId, job.credential.id).catch((err: unknown) => {
      deps.log.warn({ jobId: job.id, err: String(err) }, "remembered device not read; the login starts without it");
      return null;
    });
    const loginInput = {
      loginUrl: job.loginUrl,
      identifier: job.credential.username,
      password: input.password,
      additionalFields: input.additionalFields,
      inbox,
      inboxWaitMs: config.mfa.waitMs,
      totp: input.totpSecret ? () => freshTotpCode(parseTotpSecret(input.totpSecret!)) : undefined,
    };
    const attempt = async () => {
      const handoff = handoffFor(job, hooks);
      return inPage<{ result: PasswordLoginResult | SignupResult; kept: RememberedDevice | null }>(
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
          const run = () => {
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
          const result = await run();
          if ("signedInBy" in result) return { result, kept: null };
          // What the site now remembers this browser by, for the next login (null: unchanged).
          const kept = await rememberedDevice(page, job.loginUrl, result.session.cookies, device, guard, {
            openContext,
          }).catch((err: unknown) => {
            deps.log.warn({ jobId: job.id, err: String(err) }, "remembered device not read off the session");
            return null;
          });
          if (kept)
            deps.log.debug(
              { jobId: job.id, kept: kept.cookies.length, passedOver: kept.passOver.length },
              "remembered device read off the session",
            );
          return { result, kept };
        },
      ).finally(() => handoff?.close());
    };
    let ran: Awaited<ReturnType<typeof attempt>>;
    try {
      ran = await attempt();
    } catch (err) {
      // The remembered device signed the browser in before the form showed (its cookies carried a session
      // after all): nothing was sent. It is forgotten, and the login runs as a new device's.
      if (!device?.cookies.length || !(err instanceof LoginFlowError) || err.code !== "form_not_found") throw err;
      deps.log.info(
        { jobId: job.id },
        "no login form with the remembered device; forgotten, and the login runs without it",
      );
      await db.credentials.saveDevice(job.orgId, job.credential.id, null).catch(() => undefined);
      device = null;
      ran = await attempt();
    }
    const { result, kept } = ran;
    if ("signedInBy" in result) return result;
    if (enrol.afterSignIn) await keepEnrolled(job, enrol.made(), { ...hooks, onFailurePage });
    // No flow: it could not be kept without a secret in it; nothing to store.
    const changedFlow = !result.flow || (learned && sameFlow(learned, result.flow)) ? null : result.flow;
    return { session: result.session, source: result.source, changedFlow, device: kept };
  }

  /** Signs up through the provider's button with the provider account, then gives the site what its form still asks. */
  async function runOAuthSignup(job: OpenedJob, input: SignupJobInput, hooks: RunHooks): Promise<SignupSuccess> {
    const email = input.email!;
    const result = await runOAuth(
      job,
      {
        method: oauthMethodFor(input.provider!),
        provider: input.provider!,
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
      email,
      username: result.username,
      password: input.password ?? "",
      passwordGenerated: false,
      identifier: email,
      loginUrl: result.loginPage,
      session: result.session,
      signedInBy: "signup",
    };
  }

  /** The job's person, when its caller allowed a hand-off: asked on the job's record, shown the page live. */
  function handoffFor(job: OpenedJob, hooks: Pick<RunHooks, "onProgress" | "onNeedsInput">) {
    if (!job.allowHandoff) return undefined;
    const handoffDeps = {
      jobs: deps.jobs,
      events: inboxEvents,
      maxWaitMs: config.handoff.maxWaitMs,
      maxWaitingPerOrg: config.handoff.maxWaitingPerOrg,
      stopping: deps.stopping,
      relay: deps.relay,
      log: deps.log,
    };
    return jobHandoff(handoffDeps, job, { onProgress: hooks.onProgress, onAsked: () => hooks.onNeedsInput?.() });
  }

  async function runSignup(
    job: OpenedJob,
    input: SignupJobInput,
    { onFailurePage, ...hooks }: RunHooks,
  ): Promise<SignupSuccess> {
    if (input.method === "oauth") return runOAuthSignup(job, input, { ...hooks, onFailurePage });
    const inbox = input.inbox ? inboxFor(job, input.inbox, hooks) : undefined;
    const handoff = handoffFor(job, hooks);
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
            deps.log.info({ jobId: job.id, code: err.code, reason: err.message }, "the new account has no passkey");
          }
        }
      : undefined;
    const result = await inPage(job, { inbox: !!inbox, handoff: !!handoff }, onFailurePage, (page, timeoutMs) => {
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
    }).finally(() => handoff?.close());
    if (!passkey) return result;
    // The site's "added" is confirmed by a sign-in with it; one that does not sign in is not the account's.
    try {
      passkey = await confirmPasskey(job, { loginUrl: result.loginUrl, identifier: result.identifier }, passkey, {
        ...hooks,
        onFailurePage,
      });
    } catch (err) {
      if (!(err instanceof LoginFlowError)) throw err;
      deps.log.info(
        { jobId: job.id, code: err.code, reason: err.message },
        "the new account's passkey did not sign in; the signup stands without it",
      );
      return result;
    }
    return { ...result, passkey };
  }

  return function runAuthFlow(job: OpenedJob, hooks: RunHooks): Promise<LoginSuccess | SignupSuccess> {
    // The origin only: the page's path or query may hold an invitation's token.
    hooks.onProgress("navigating", { origin: new URL(job.loginUrl).origin });
    return job.kind === "signup"
      ? runSignup(job, job.input as SignupJobInput, hooks)
      : runLogin(job, job.input as Exclude<JobInput, SignupJobInput>, hooks);
  };
}

export type FlowRunner = ReturnType<typeof createFlowRunner>;

/** A failure of the organization's proxy, as the job's end: `proxy_auth_failed` is never retried. */
function proxyFailure(err: unknown, door: ProxyDoor): LoginFlowError {
  const failure = err instanceof ProxyFailure ? err : door.failure();
  if (!failure)
    return err instanceof LoginFlowError
      ? err
      : new LoginFlowError("proxy_unreachable", `the proxy did not answer: ${String(err)}`);
  return new LoginFlowError(failure.code, failure.message, { retryable: failure.code === "proxy_unreachable" });
}
