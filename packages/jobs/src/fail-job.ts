import { CREDENTIAL_FAILURE_CODES, type ErrorCode, type FieldError, type UnfinishedAccount } from "@authsvc/contracts";
import { type Database, isHeldByRun, type JobScreenshotImage } from "@authsvc/db";
import { tell, type JobDeps } from "./job-deps";
import { about, emitEvent } from "./job-events";
import type { OpenedJob } from "./open-job";
import { keepUnfinishedSignup } from "./signup-account";

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
const CREDENTIAL_FAILURES: ReadonlySet<string> = new Set(CREDENTIAL_FAILURE_CODES);

/** Whether this run still holds the job (its newest run, running): the record is its to write. */
const holdsJob = (db: Database, job: OpenedJob) =>
  db.authJobs.runOf(job.id).then(
    (r) => (r ? isHeldByRun(r, job.run) : false),
    () => false,
  );

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
