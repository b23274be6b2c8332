import type {
  CapturedSession,
  JobInput,
  LoginSecret,
  RememberedDevice,
  SessionResponse,
  SignedUpAccount,
} from "@authsvc/contracts";
import { type Database, isUniqueViolation, type PasskeyKey } from "@authsvc/db";
import { tellEntryLinkSettled } from "./entry-links";
import { tell, type JobDeps } from "./job-deps";
import { about, emitEvent } from "./job-events";
import { JobTakenOver, type OpenedJob } from "./open-job";
import { sessionLifetime } from "./session-lifetime";
import { settleSignup } from "./signup-account";

type EntryLink = NonNullable<Awaited<ReturnType<Database["entryLinks"]["settle"]>>>;

/** A login (or refresh, or verify) that signed in; its `kind` tells it from a signup's (a verify may end as either). */
export interface LoginSuccess {
  kind: "login";
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
  if (outcome.kind === "login" && job.input.kind === "signup") throw new Error("a signup job ended as a login");
  const lifetime = sessionLifetime(outcome.session, deps.config.session.ttlSeconds);
  const stored = await storeSuccess(deps, job, outcome, lifetime.servedUntil);
  if (!stored) throw new JobTakenOver();
  const { sessionId, cacheKey, entryLink } = stored;
  const durationMs = Date.now() - job.started;
  const cookies = outcome.session.cookies.length;
  // What the next request must find is in place before the waiting callers are told: the cached session,
  // the learned flow, and the claim released (a request after the answer starts its own login; one that
  // claimed before it joins this one).
  if (outcome.kind === "signup") {
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
        if (outcome.kind === "signup") {
          const settled = await settleSignup(tx, deps.config, job, outcome);
          cacheKey = settled.cacheKey;
          if (outcome.passkey) await tx.passkeys.add(job.orgId, settled.credentialId, outcome.passkey, job.id);
          ended = await tx.jobLifecycle.succeed(job.id, job.run, sessionId, "detected", {
            fingerprint: cacheKey,
            account: { email: outcome.email, username: outcome.username, passwordGenerated: outcome.passwordGenerated },
          });
        } else {
          // A passkey sign-in keeps the secret it did not use: the password an enrolment or the site may need again.
          const secret = keptSecret(job.input);
          await tx.credentials.recordSuccess(
            job.orgId,
            job.credential.id,
            secret.method === "passkey" ? null : secret,
            job.loginUrl,
          );
          if (outcome.device) await tx.credentialBrowsers.saveDevice(job.orgId, job.credential.id, outcome.device);
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
        return landed ? { sessionId: landed, cacheKey: record.fingerprint } : null;
      }
      if (isUniqueViolation(err) && attempt === 0) continue;
      throw err;
    }
  }
}

/**
 * What a login's credential keeps to log in again: its input without the confirmation that was spent on the
 * way, nor the request's proxy choice (the credential keeps its proxy itself), nor an enrolment's settings page.
 */
function keptSecret(input: JobInput): LoginSecret {
  switch (input.kind) {
    case "login": {
      const { kind: _kind, egress: _choice, ...secret } = input;
      return secret;
    }
    case "verify": {
      const { kind: _kind, egress: _choice, confirmation: _spent, ...secret } = input;
      return secret;
    }
    case "passkey_enrol": {
      const { kind: _kind, egress: _choice, enrol: _enrol, ...secret } = input;
      return secret;
    }
    case "signup":
      throw new Error("a signup job ended as a login");
  }
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
