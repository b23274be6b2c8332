import type {
  CapturedSession,
  ErrorCode,
  FieldError,
  LoginSecret,
  RememberedDevice,
  SessionResponse,
  SignedUpAccount,
  SignupJobInput,
  UnfinishedAccount,
} from "@authsvc/contracts";
import { isSignupInput, oauthMethodFor } from "@authsvc/contracts";
import { type Database, isHeldByRun, isUniqueViolation, type JobScreenshotImage, type PasskeyKey } from "@authsvc/db";
import { emitEvent } from "./job-events";
import { tellEntryLinkSettled } from "./entry-links";

type EntryLink = NonNullable<Awaited<ReturnType<Database["entryLinks"]["settle"]>>>;
import { tell, type JobDeps } from "./job-deps";
import { JobTakenOver, type OpenedJob } from "./open-job";
import { loginFingerprint, storedLoginIdentity } from "./session-keys";
import { sessionLifetime } from "./session-lifetime";

/** A login (or refresh, or verify) that signed in. */
export interface LoginSuccess {
  session: CapturedSession;
  /** `learned`: the stored flow worked as it was; `relearned`: it no longer fit and detection took over. */
  source: "detected" | "learned" | "relearned";
  /** A flow to store for the login page (the first, or one found after the stored one no longer fit); null keeps what is stored. */
  changedFlow: object | null;
  /** The site's memory of this browser, to keep with the credential; null or absent keeps what is kept. */
  device?: RememberedDevice | null;
}

/**
 * A signup that signed its new account in (a verify that finished a mailed signup is one too), with the
 * passkey it added (`createPasskey`), stored with the credential the account settled on.
 */
export type SignupSuccess = SignedUpAccount & { passkey?: PasskeyKey };

export interface JobFailure {
  code: string;
  message: string;
  /** A transient fault, before anything was submitted: the queue may run the job again. */
  retryable: boolean;
  /** The run submitted the password or signup form before it failed (logged; such failures are never retryable). */
  submitted: boolean;
  /** A signup that failed after its form was sent may have left an account: its password is kept. */
  unfinished?: UnfinishedAccount;
  /** What the caller can fix, field by field (`form_ambiguous`: the candidate fields); never a secret. */
  details?: FieldError[];
  /** The page the run ended on, its secret fields already blanked; stored (encrypted) when the failure is final. */
  lastPage?: JobScreenshotImage;
}

// Failures that say the stored credential no longer works (rather than the site or we had a bad moment).
const CREDENTIAL_FAILURES = new Set([
  "invalid_credentials",
  "account_locked",
  "mfa_required",
  "verification_failed",
  "passkey_rejected",
]);

/** What every event about the job says of its credential: ids and metadata, never a secret. */
const about = (job: OpenedJob) => ({
  credentialId: job.credential.id,
  site: job.credential.siteOrigin,
  username: job.credential.username,
  jobId: job.id,
});

/** Whether this run still holds the job (its newest run, running): the record is its to write. */
const holdsJob = (db: Database, job: OpenedJob) =>
  db.authJobs.runOf(job.id).then(
    (r) => (r ? isHeldByRun(r, job.run) : false),
    () => false,
  );

/** Thrown inside a transaction whose job write found the run no longer holds the job: nothing of it lands. */
class StaleRun extends Error {}

/**
 * Ends a job that signed in: stores the session, records what logs in again on the credential (or settles
 * a signup's account) and ends the job's record, in one transaction written by this run; then stores a
 * changed learned flow, caches the session, releases the single-flight claim and tells the org's webhooks.
 * Throws JobTakenOver, writing nothing, when a newer run holds the job (this one stalled past its lock).
 * Tried again as a whole after a lost connection, it stores one session: writes that landed are found by
 * the job's record. Bookkeeping after that never fails the job twice: a fault there is logged, and the
 * caller must not log in (or sign up) again if this throws.
 */
export async function succeedJob(
  deps: JobDeps,
  job: OpenedJob,
  outcome: LoginSuccess | SignupSuccess,
): Promise<{ sessionId: string }> {
  const { db } = deps;
  const log = deps.log.child({ jobId: job.id, orgId: job.orgId, attempt: job.attempt });
  if (!("signedInBy" in outcome) && isSignupInput(job.input)) throw new Error("a signup job ended as a login");
  const lifetime = sessionLifetime(outcome.session, deps.config.session.ttlSeconds);
  const stored = await storeSuccess(deps, job, outcome, lifetime.servedUntil);
  if (!stored) throw new JobTakenOver();
  const { sessionId, cacheKey, entryLink } = stored;
  const durationMs = Date.now() - job.started;
  const cookies = outcome.session.cookies.length;
  // What the next request must find is in place before the waiting callers are told: the cached session,
  // the learned flow, and the claim released (a request after the answer starts its own login; one that
  // claimed before it joins this one).
  if ("signedInBy" in outcome) {
    log.info(
      { durationMs, cookies, signedInBy: outcome.signedInBy, passwordGenerated: outcome.passwordGenerated },
      "signup succeeded",
    );
    await Promise.all([cacheSession(deps, job, cacheKey, outcome.session, log), releaseClaim(deps, job, log)]);
    await tell(deps, job.id, "succeeded", { attempt: job.attempt, credentialId: job.credential.id });
    return { sessionId };
  }
  log.info({ durationMs, cookies, flow: outcome.source }, "login succeeded");
  await Promise.all([
    db.learnedFlows
      .recordSuccess(job.orgId, job.loginPage, {
        changed: outcome.changedFlow,
        relearned: outcome.source === "relearned",
      })
      .catch((err) => log.warn({ err: String(err) }, "learned flow not stored")),
    cacheSession(deps, job, cacheKey, outcome.session, log),
    releaseClaim(deps, job, log),
  ]);
  await Promise.all([
    tell(deps, job.id, "succeeded", { attempt: job.attempt, credentialId: job.credential.id }),
    job.kind === "refresh"
      ? emitEvent(db, deps.webhookQueue, job.orgId, "session.refreshed", {
          ...about(job),
          sessionExpiresAt: lifetime.expiresAt ?? null,
        }).catch((err) => log.warn({ err: String(err) }, "session.refreshed event not queued"))
      : Promise.resolve(),
    entryLink ? tellEntryLinkSettled(deps, entryLink, job) : Promise.resolve(),
  ]);
  return { sessionId };
}

/**
 * The success's writes, in one transaction: the session row, the credential's secret and login page (a
 * signup's settled account), and the job's end by this run. Null when a newer run holds the job. Writes
 * an earlier try of this run already committed (its answer lost with the connection) are found, not
 * repeated; a login that made a row of the signup's identity meanwhile makes the whole run once more.
 */
async function storeSuccess(
  deps: JobDeps,
  job: OpenedJob,
  outcome: LoginSuccess | SignupSuccess,
  expiresAt: Date,
): Promise<{ sessionId: string; cacheKey: string; entryLink?: EntryLink | null } | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.db.transaction(async (tx) => {
        const sessionId = await tx.sessions.create({
          orgId: job.orgId,
          credentialId: job.credential.id,
          origin: job.credential.siteOrigin,
          state: outcome.session,
          expiresAt,
        });
        let cacheKey = job.fingerprint;
        let ended: boolean;
        if ("signedInBy" in outcome) {
          const settled = await settleSignup(tx, deps.config, job, outcome);
          cacheKey = settled.cacheKey;
          if (outcome.passkey) await tx.passkeys.add(job.orgId, settled.credentialId, outcome.passkey, job.id);
          ended = await tx.jobLifecycle.succeed(job.id, job.run, sessionId, "detected", {
            fingerprint: cacheKey,
            account: { email: outcome.email, username: outcome.username, passwordGenerated: outcome.passwordGenerated },
          });
        } else {
          // The credential keeps what logs in again, not the confirmation that was spent on the way, nor the
          // request's proxy choice (the credential keeps its proxy itself), nor an enrolment's settings page. A
          // passkey sign-in keeps the secret it did not use: the password an enrolment or the site may need again.
          const {
            confirmation: _spent,
            egress: _choice,
            enrol: _enrol,
            ...secret
          } = job.input as LoginSecret & { confirmation?: unknown; enrol?: unknown };
          await tx.credentials.recordSuccess(
            job.orgId,
            job.credential.id,
            secret.method === "passkey" ? null : (secret as LoginSecret),
            job.loginUrl,
          );
          if (outcome.device) await tx.credentials.saveDevice(job.orgId, job.credential.id, outcome.device);
          ended = await tx.jobLifecycle.succeed(job.id, job.run, sessionId, outcome.source);
          // A credential an end user typed on an entry link's page: the link is spent, and names it.
          const entryLink = ended ? await tx.entryLinks.settle(job.id, job.credential.id) : null;
          if (ended) return { sessionId, cacheKey, entryLink };
        }
        if (!ended) throw new StaleRun();
        return { sessionId, cacheKey };
      });
    } catch (err) {
      if (err instanceof StaleRun) {
        const record = await deps.db.authJobs.runOf(job.id);
        const landed = record?.status === "succeeded" && record.attempts === job.run && record.sessionId;
        return landed ? { sessionId: record.sessionId!, cacheKey: record.fingerprint } : null;
      }
      if (isUniqueViolation(err) && attempt === 0) continue;
      throw err;
    }
  }
}

/**
 * Ends a failed run. A retryable failure before the last attempt puts the job back in the queue
 * (`retry`). Otherwise the job is failed for good (`final`): a signup's unfinished account is kept, the
 * credential records the failure, the claim is released, the last page (redacted) is stored, and a
 * credential that worked before and is now refused is reported to the org's webhooks. The job keeps its
 * encrypted input, so platform staff can replay it. `stale`: a newer run holds the job (this one stalled
 * past its lock while another worker took it): nothing is written, released or told.
 */
export async function failJob(
  deps: JobDeps,
  job: OpenedJob,
  failure: JobFailure,
  maxAttempts: number,
): Promise<"retry" | "final" | "stale"> {
  const { db } = deps;
  const log = deps.log.child({ jobId: job.id, orgId: job.orgId, attempt: job.attempt });
  const isSignup = job.kind === "signup";
  // An enrolment the site gave no passkey, or whose new passkey did not sign in: the credential's own
  // secret signed in, so the credential keeps its standing (no failure recorded, no credential.failed).
  const passkeyOnly = job.kind === "passkey_enrol" && failure.code.startsWith("passkey_");
  const final = !failure.retryable || job.attempt >= maxAttempts;
  log.warn(
    {
      code: failure.code,
      reason: failure.message,
      final,
      submitted: failure.submitted,
      durationMs: Date.now() - job.started,
    },
    isSignup ? "signup failed" : "login failed",
  );
  const stale = () => {
    log.warn({ code: failure.code }, "a newer run holds this job: this run's failure is not recorded");
    return "stale" as const;
  };
  if (!final) {
    if (!(await db.jobLifecycle.requeue(job.id, job.run, failure.code, failure.message))) return stale();
    await tell(deps, job.id, "retrying", { attempt: job.attempt, code: failure.code });
    return "retry";
  }
  // The last page first: once the record says failed, a caller may ask for it at once.
  if (failure.lastPage && (await holdsJob(db, job))) {
    await db.jobScreenshots
      .save(job.orgId, job.id, failure.lastPage)
      .catch((err) => log.warn({ err: String(err) }, "last page of the failed job not stored"));
  }
  try {
    const ended = await db.transaction(async (tx) => {
      const kept = failure.unfinished ? await keepUnfinishedSignup(tx, job, failure.unfinished, failure.code) : null;
      const message = kept
        ? `${failure.message} (the account's password is kept in credential ${kept})`
        : failure.message;
      if (!(await tx.jobLifecycle.fail(job.id, job.run, failure.code, message, failure.details))) return false;
      // A failed signup says nothing about a credential that already works (an account that exists).
      if (!kept && !passkeyOnly && (!isSignup || !job.credential.lastLoginAt))
        await tx.credentials.recordFailure(job.orgId, job.credential.id, failure.code);
      return true;
    });
    if (!ended) return stale();
    await deps.flight.release(job.orgId, job.fingerprint, job.id);
  } catch (bookkeeping) {
    log.error({ err: String(bookkeeping) }, "could not record a failed login");
  }
  // The code only: the message (which may quote the site) is served from the record (see the SSE route).
  await tell(deps, job.id, "failed", { attempt: job.attempt, code: failure.code });
  // A credential that worked before (or is being refreshed) and now is refused: tell the org.
  if (
    !isSignup &&
    !passkeyOnly &&
    CREDENTIAL_FAILURES.has(failure.code) &&
    (job.credential.lastLoginAt || job.kind === "refresh")
  ) {
    await emitEvent(db, deps.webhookQueue, job.orgId, "credential.failed", { ...about(job), code: failure.code }).catch(
      (err) => log.warn({ err: String(err) }, "credential.failed event not queued"),
    );
  }
  return "final";
}

/**
 * Ends the record of a job the queue failed for good without a run recording it (a fault before the
 * browser ran, or a job that stalled too often because its worker died), and frees its claim, so callers
 * stop waiting for it. One that had submitted its password ends `login_unconfirmed`: the site may have
 * signed in, and nothing submits again.
 */
export async function abandonJob(
  deps: Pick<JobDeps, "db" | "flight" | "progress" | "log">,
  orgId: string,
  jobId: string,
  reason: string,
): Promise<void> {
  const submitted = (await deps.db.authJobs.find(orgId, jobId))?.submittedAt;
  if (submitted) {
    await endOpenJob(
      deps,
      orgId,
      jobId,
      "login_unconfirmed",
      `the password was submitted, then the login was interrupted (${reason}); its outcome is unknown and it is not submitted again`,
    );
  } else {
    await endOpenJob(deps, orgId, jobId, "internal_error", `the login was interrupted: ${reason}`);
  }
}

/** Ends a job still open (queued or running) with this failure, unless it ended meanwhile; frees its single-flight claim and tells its followers. */
export async function endOpenJob(
  deps: Pick<JobDeps, "db" | "flight" | "progress" | "log">,
  orgId: string,
  jobId: string,
  code: ErrorCode,
  message: string,
): Promise<void> {
  const fingerprint = await deps.db.jobLifecycle.failIfUnfinished(jobId, code, message);
  if (!fingerprint) return;
  await deps.flight.release(orgId, fingerprint, jobId);
  await tell(deps, jobId, "failed", { code });
}

/**
 * Stores what a signup created: the credential under the identity the site settled on, with the secret a
 * password login needs (the generated password too, encrypted), and the job's account. Returns the key a
 * login or refresh of that account computes, under which its session is cached, and the credential's id.
 */
async function settleSignup(
  db: Database,
  config: JobDeps["config"],
  job: OpenedJob,
  account: SignupSuccess,
): Promise<{ cacheKey: string; credentialId: string }> {
  const secret = signedUpSecret(job, account);
  const settled = await db.credentials.settleSignup(job.orgId, job.credential.id, {
    username: account.identifier,
    loginUrl: account.loginUrl,
    secret,
  });
  // The key a login of this account computes (storedLoginIdentity is what a refresh computes too).
  const cacheKey = loginFingerprint(
    config.crypto.fingerprintKey,
    job.orgId,
    storedLoginIdentity(
      {
        loginPage: settled.loginPage,
        username: account.identifier,
        collectionExternalId: settled.collectionExternalId,
      },
      secret,
    ),
  );
  return { cacheKey, credentialId: settled.id };
}

/**
 * Stores an unfinished signup's account, with its password, under the identity the site knows it by
 * (status `pending_verification` when it waits for its email to be confirmed); returns the credential's
 * id, or null when a credential of that account already works and was left alone.
 */
async function keepUnfinishedSignup(
  db: Database,
  job: OpenedJob,
  account: UnfinishedAccount,
  code: string,
): Promise<string | null> {
  const byEmail = account.identifier === account.email;
  const secret: LoginSecret = {
    method: "password",
    password: account.password,
    email: byEmail ? account.email! : undefined,
    inbox: inboxOf(job),
    awaitsPassword: account.awaitsPassword || undefined,
  };
  const settled = await db.credentials.settleSignup(
    job.orgId,
    job.credential.id,
    { username: account.identifier, loginUrl: account.loginUrl, secret },
    { failure: code },
  );
  const row = await db.credentials.find(job.orgId, settled.id);
  return row && !row.lastLoginAt ? settled.id : null;
}

/**
 * What the new account logs in again with: its site password, or, signed up through a provider, the
 * provider account (its password and TOTP secret) and the provider.
 */
function signedUpSecret(job: OpenedJob, account: SignupSuccess): LoginSecret {
  const input = job.input as SignupJobInput;
  if (input.method === "oauth" && input.provider) {
    return {
      method: oauthMethodFor(input.provider),
      provider: input.provider,
      password: account.password,
      email: account.email ?? undefined,
      totpSecret: input.totpSecret,
      inbox: inboxOf(job),
    };
  }
  const byEmail = account.identifier === account.email;
  return {
    method: "password",
    password: account.password,
    email: byEmail ? account.email! : undefined,
    inbox: inboxOf(job),
  };
}

/** The inbox the job read, kept so the account's next login reads the same one. */
function inboxOf(job: OpenedJob): LoginSecret["inbox"] {
  return job.input.inbox;
}

function cacheSession(
  deps: JobDeps,
  job: OpenedJob,
  key: string,
  state: SessionResponse,
  log: JobDeps["log"],
): Promise<void> {
  const seconds = (sessionLifetime(state, deps.config.session.ttlSeconds).servedUntil.getTime() - Date.now()) / 1000;
  if (seconds <= 0) return Promise.resolve();
  return deps.cache
    .set(job.orgId, key, state, seconds)
    .catch((err) => log.warn({ err: String(err) }, "session not cached"));
}

function releaseClaim(deps: JobDeps, job: OpenedJob, log: JobDeps["log"]): Promise<void> {
  return deps.flight
    .release(job.orgId, job.fingerprint, job.id)
    .catch((err) => log.warn({ err: String(err) }, "single-flight claim not released"));
}
