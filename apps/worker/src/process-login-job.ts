import { UnrecoverableError, type Job } from "bullmq";
import type { BrowserHost, Page, TargetGuard } from "@authsvc/browser";
import type { Config } from "@authsvc/config";
import { freshTotpCode, parseTotpSecret } from "@authsvc/crypto";
import { loginPageOf, type SessionResponse } from "@authsvc/contracts";
import type { Database, SecretBundle } from "@authsvc/db";
import { confirmAndSignIn, finishMailedSignup, type LearnedFlow, LoginFlowError, parseLearnedFlow, type PasswordLoginResult, passwordLogin, sameFlow, signup, SignupUnfinishedError, type SignupResult, twoCaptchaSolver } from "@authsvc/flows";
import type { Logger } from "@authsvc/logging";
import type { Queue } from "bullmq";
import { loginFingerprint, type AuthJobPayload, type InboxEvents, type SessionCache, type SingleFlight, type WebhookDeliveryPayload } from "@authsvc/queue";
import { cacheExpiry } from "./session-expiry";
import { emitEvent } from "./webhook-events";
import { workerInbox } from "./worker-inbox";
import type { WorkerMetrics } from "./worker-metrics";

export interface LoginJobDeps {
  config: Config;
  db: Database;
  cache: SessionCache;
  flight: SingleFlight;
  browser: BrowserHost;
  guard: TargetGuard;
  log: Logger;
  metrics: WorkerMetrics;
  /** Wake-ups of our inboxes (mail-in, SMS webhook), for logins that wait for a code or link. */
  inboxEvents: InboxEvents;
  /** Where events for the organizations' webhooks are queued. */
  webhookQueue: Queue<WebhookDeliveryPayload>;
}

// Failures that say the stored credential no longer works (rather than the site or we had a bad moment).
const CREDENTIAL_FAILURES = new Set(["invalid_credentials", "account_locked", "mfa_required", "verification_failed"]);

type FlowHooks = { onStep: (step: string) => void; beforeSubmit: () => Promise<void> };

// Past the flow's own deadline, how long we wait before closing the browser context under it.
const HARD_STOP_GRACE_MS = 5000;

/**
 * Once the password was submitted, no failure is retried, whatever it was: submitting again could count
 * as another failed login on the target site and lock the account. Before that, transient faults are.
 */
function asFlowError(err: unknown, submitted: boolean): LoginFlowError {
  const failure =
    err instanceof LoginFlowError
      ? err
      : new LoginFlowError("internal_error", `browser fault: ${err instanceof Error ? err.message.split("\n")[0]! : String(err)}`);
  return submitted && failure.retryable ? new LoginFlowError(failure.code, failure.message, { retryable: false }) : failure;
}

export function createLoginProcessor(deps: LoginJobDeps) {
  const { config, db, cache, flight, browser, guard, log, metrics, inboxEvents, webhookQueue } = deps;
  // The operator's CAPTCHA solving service, when configured; without one a challenge ends in captcha_blocked.
  const captchaSolver = config.captchaSolver ? twoCaptchaSolver(config.captchaSolver) : undefined;

  /**
   * Runs a flow in a fresh page under the job's time limit (with the inbox wait on top when it may wait
   * for a message), closing the browser context under a flow that overruns it.
   */
  function inPage<T>(withInbox: boolean, flow: (page: Page, timeoutMs: number) => Promise<T>): Promise<T> {
    const timeoutMs = config.worker.jobTimeoutMs + (withInbox ? config.mfa.waitMs : 0);
    return browser.withPage(async (page) => {
      metrics.activeLogins.inc();
      let timer: NodeJS.Timeout | undefined;
      const hardStop = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new LoginFlowError("timeout", "the login did not finish in time"));
          void page.browserContext().close().catch(() => undefined);
        }, timeoutMs + HARD_STOP_GRACE_MS);
      });
      try {
        return await Promise.race([flow(page, timeoutMs), hardStop]);
      } finally {
        clearTimeout(timer);
        metrics.activeLogins.dec();
      }
    });
  }

  function runLogin(orgId: string, loginUrl: string, identifier: string, secret: SecretBundle, learned: LearnedFlow | null, hooks: FlowHooks): Promise<PasswordLoginResult | SignupResult> {
    const inbox = secret.inbox ? workerInbox(db, inboxEvents, orgId, secret.inbox) : undefined;
    const input = {
      loginUrl,
      identifier,
      password: secret.password,
      additionalFields: secret.additionalFields,
      inbox,
      inboxWaitMs: config.mfa.waitMs,
      // Codes are made just in time from the decrypted secret; the secret never leaves this process.
      totp: secret.totpSecret ? () => freshTotpCode(parseTotpSecret(secret.totpSecret!)) : undefined,
    };
    const { confirmation } = secret;
    return inPage<PasswordLoginResult | SignupResult>(!!inbox, (page, timeoutMs) => {
      const options = { guard, timeoutMs, learned, captchaSolver, ...hooks };
      if (!confirmation) return passwordLogin(page, input, options);
      const given = "inboxSince" in confirmation ? { inboxSince: new Date(confirmation.inboxSince) } : confirmation;
      if (secret.awaitsPassword && !("code" in given)) {
        // The signup's own ending, with the mail it waited for: the password it brings, or set on its link.
        return finishMailedSignup(page, { loginUrl, identifier, email: secret.email, password: secret.password, inbox }, given, { guard, timeoutMs, ...hooks });
      }
      return confirmAndSignIn(page, input, given, options);
    });
  }

  function runSignup(orgId: string, signupUrl: string, secret: SecretBundle, hooks: FlowHooks): Promise<SignupResult> {
    const inbox = secret.inbox ? workerInbox(db, inboxEvents, orgId, secret.inbox) : undefined;
    return inPage(!!inbox, (page, timeoutMs) =>
      signup(
        page,
        {
          signupUrl: secret.signup?.inviteLink ?? signupUrl,
          signupUrlIsSecret: !!secret.signup?.inviteLink,
          email: secret.email,
          username: secret.signup?.username,
          password: secret.password,
          name: secret.signup?.name,
          inviteToken: secret.signup?.inviteToken,
          additionalFields: secret.additionalFields,
          inbox,
          inboxWaitMs: config.mfa.waitMs,
        },
        { guard, timeoutMs, ...hooks },
      ),
    );
  }

  return async function processLoginJob(job: Job<AuthJobPayload>): Promise<{ sessionId: string }> {
    const { authJobId, orgId } = job.data;
    const attempt = job.attemptsMade + 1;
    const jobLog = log.child({ jobId: authJobId, orgId, attempt });
    // A fault before the browser runs (database away) is thrown as is: BullMQ retries it, and the
    // worker's `failed` handler ends the job record if no attempt is left.
    const record = await db.authJobs.claim(orgId, authJobId, attempt);
    if (!record?.input) throw new UnrecoverableError("job record or its input is missing");
    const credential = await db.credentials.find(orgId, record.credentialId);
    if (!credential) throw new UnrecoverableError("credential is missing");
    if (record.submittedAt) {
      // An earlier run submitted the password and then died (crash, out of memory, forced exit): its
      // outcome is unknown, and submitting again could lock the account.
      const message = `an earlier run submitted the ${record.kind === "signup" ? "signup form" : "password"} and was interrupted; not submitting again`;
      await db.authJobs.fail(authJobId, "login_unconfirmed", message);
      await flight.release(orgId, record.fingerprint, authJobId);
      throw new UnrecoverableError("login_unconfirmed");
    }

    // What every event about this job says of the credential (ids and metadata, never a secret).
    const about = { credentialId: credential.id, site: credential.siteOrigin, username: credential.username, jobId: authJobId };
    let submitted = false;
    const started = Date.now();
    const timer = metrics.loginDuration.startTimer();
    // Learned flows are kept per login page: a site may have several.
    const loginPage = loginPageOf(record.loginUrl);
    const isSignup = record.kind === "signup";
    // A flow we cannot read (database away, older shape) only costs detection time. Signups learn none.
    const learned = isSignup ? null : parseLearnedFlow(await db.learnedFlows.find(orgId, loginPage).catch(() => null));
    const hooks: FlowHooks = {
      onStep: (step) => jobLog.debug({ step }, isSignup ? "signup step" : "login step"),
      beforeSubmit: async () => {
        submitted = true;
        await db.authJobs.markSubmitted(authJobId);
      },
    };
    let result: PasswordLoginResult | SignupResult;
    try {
      result = isSignup
        ? await runSignup(orgId, record.loginUrl, record.input, hooks)
        : await runLogin(orgId, record.loginUrl, credential.username, record.input, learned, hooks);
      timer({ outcome: "succeeded" });
    } catch (err) {
      const failure = asFlowError(err, submitted);
      timer({ outcome: failure.code });
      const final = !failure.retryable || attempt >= (job.opts.attempts ?? 1);
      jobLog.warn({ code: failure.code, reason: failure.message, final, submitted, durationMs: Date.now() - started }, isSignup ? "signup failed" : "login failed");
      if (!final) {
        await db.authJobs.requeue(authJobId, failure.code, failure.message);
        throw new Error(failure.code);
      }
      try {
        // A signup that failed after its form was sent may have left an account on the site: keep it.
        const kept = err instanceof SignupUnfinishedError ? await keepUnfinishedSignup(orgId, credential.id, record.input, err) : null;
        await db.authJobs.fail(authJobId, failure.code, kept ? `${failure.message} (the account's password is kept in credential ${kept})` : failure.message);
        // A failed signup says nothing about a credential that already works (an account that exists).
        if (!kept && (!isSignup || !credential.lastLoginAt)) await db.credentials.recordFailure(orgId, credential.id, failure.code);
        await flight.release(orgId, record.fingerprint, authJobId);
      } catch (bookkeeping) {
        jobLog.error({ err: String(bookkeeping) }, "could not record a failed login");
      }
      // A credential that worked before (or is being refreshed) and now is refused: tell the org.
      if (!isSignup && CREDENTIAL_FAILURES.has(failure.code) && (credential.lastLoginAt || record.kind === "refresh")) {
        await emitEvent(db, webhookQueue, orgId, "credential.failed", { ...about, code: failure.code }).catch((err) => jobLog.warn({ err: String(err) }, "credential.failed event not queued"));
      }
      // Unrecoverable even if the bookkeeping failed: never submit the password again. Only the code goes
      // to Redis; the message may quote the target site.
      throw new UnrecoverableError(failure.code);
    }

    // It worked; what follows is bookkeeping, which must not log in (or sign up) again if it fails.
    const state: SessionResponse = result.session;
    try {
      const sessionId = await db.sessions.create({
        orgId,
        credentialId: credential.id,
        origin: credential.siteOrigin,
        state,
        expiresAt: cacheExpiry(state, config.session.ttlSeconds),
      });
      if ("signedInBy" in result) {
        const cacheKey = await settleSignup(orgId, credential.id, authJobId, sessionId, record.input, result);
        jobLog.info({ durationMs: Date.now() - started, cookies: state.cookies.length, signedInBy: result.signedInBy, passwordGenerated: result.passwordGenerated }, "signup succeeded");
        await Promise.all([
          cacheFor(orgId, cacheKey, state).catch((err) => jobLog.warn({ err: String(err) }, "session not cached")),
          flight.release(orgId, record.fingerprint, authJobId).catch((err) => jobLog.warn({ err: String(err) }, "single-flight claim not released")),
        ]);
        return { sessionId };
      }
      // The credential keeps what logs in again, not the confirmation that was spent on the way.
      const { confirmation: _spent, ...secret } = record.input;
      await db.credentials.recordSuccess(orgId, credential.id, secret, record.loginUrl);
      await db.authJobs.succeed(authJobId, sessionId, result.source);
      jobLog.info({ durationMs: Date.now() - started, cookies: state.cookies.length, flow: result.source }, "login succeeded");
      // No flow: it could not be kept without a secret in it; nothing to store.
      const changed = !result.flow || (learned && sameFlow(learned, result.flow)) ? null : result.flow;
      await Promise.all([
        db.learnedFlows
          .recordSuccess(orgId, loginPage, { changed, relearned: result.source === "relearned" })
          .catch((err) => jobLog.warn({ err: String(err) }, "learned flow not stored")),
        cacheFor(orgId, record.fingerprint, state).catch((err) => jobLog.warn({ err: String(err) }, "session not cached")),
        flight.release(orgId, record.fingerprint, authJobId).catch((err) => jobLog.warn({ err: String(err) }, "single-flight claim not released")),
        record.kind === "refresh"
          ? emitEvent(db, webhookQueue, orgId, "session.refreshed", {
              ...about,
              sessionExpiresAt: cacheExpiry(state, config.session.ttlSeconds).toISOString(),
            }).catch((err) => jobLog.warn({ err: String(err) }, "session.refreshed event not queued"))
          : Promise.resolve(),
      ]);
      return { sessionId };
    } catch (err) {
      jobLog.error({ err: String(err) }, "could not store the session of a successful login");
      throw new UnrecoverableError("internal_error");
    }
  };

  /**
   * Stores what a signup created: the credential under the identity the site settled on, with the secret
   * a password login needs (the generated password too, encrypted), and the job's account. Returns the
   * cache key a login or refresh of that account computes, under which the session is cached.
   */
  async function settleSignup(orgId: string, credentialId: string, jobId: string, sessionId: string, input: SecretBundle, result: SignupResult): Promise<string> {
    const byEmail = result.identifier === result.email;
    const secret: SecretBundle = { method: "password", password: result.password, email: byEmail ? result.email! : undefined, inbox: input.inbox };
    const settled = await db.credentials.settleSignup(orgId, credentialId, { username: result.identifier, loginUrl: result.loginUrl, secret });
    const cacheKey = loginFingerprint(config.crypto.fingerprintKey, orgId, {
      collectionId: settled.collectionExternalId,
      loginPage: settled.loginPage,
      method: "password",
      identifier: result.identifier,
      password: result.password,
      email: secret.email,
    });
    await db.authJobs.succeed(jobId, sessionId, "detected", {
      fingerprint: cacheKey,
      account: { email: result.email, username: result.username, passwordGenerated: result.passwordGenerated },
    });
    return cacheKey;
  }

  /**
   * Stores what an unfinished signup created, with its password, under the identity the site knows it by
   * (status `pending_verification` when it waits for its email to be confirmed); returns the credential's
   * id, or null when a credential of that account already works and was left alone.
   */
  async function keepUnfinishedSignup(orgId: string, credentialId: string, input: SecretBundle, err: SignupUnfinishedError): Promise<string | null> {
    const { account } = err;
    const byEmail = account.identifier === account.email;
    const secret: SecretBundle = {
      method: "password",
      password: account.password,
      email: byEmail ? account.email! : undefined,
      inbox: input.inbox,
      awaitsPassword: account.awaitsPassword || undefined,
    };
    const settled = await db.credentials.settleSignup(orgId, credentialId, { username: account.identifier, loginUrl: account.loginUrl, secret }, { failure: err.code });
    const row = await db.credentials.find(orgId, settled.id);
    return row && !row.lastLoginAt ? settled.id : null;
  }

  function cacheFor(orgId: string, fingerprint: string, state: SessionResponse): Promise<void> {
    const seconds = (cacheExpiry(state, config.session.ttlSeconds).getTime() - Date.now()) / 1000;
    return seconds > 0 ? cache.set(orgId, fingerprint, state, seconds) : Promise.resolve();
  }
}

/**
 * Ends the record of a job that BullMQ failed for good without our processor recording it (a fault
 * before the browser ran, or a job that stalled too often because its worker died), and frees its
 * single-flight claim, so callers stop waiting for it.
 */
export async function recordAbandonedJob(deps: Pick<LoginJobDeps, "db" | "flight">, job: Job<AuthJobPayload>, reason: string): Promise<void> {
  const fingerprint = await deps.db.authJobs.failIfUnfinished(job.data.authJobId, "internal_error", `the login was interrupted: ${reason}`);
  if (fingerprint) await deps.flight.release(job.data.orgId, fingerprint, job.data.authJobId);
}
