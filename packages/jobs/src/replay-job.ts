import { enqueueAuthJob, flightTtlMs, gateSite, removeEarlierRun } from "@authsvc/queue";
import { storedErrorCode } from "@authsvc/contracts";
import { allows } from "@authsvc/db";
import { gateCaps } from "./start-job";
import { tell, type JobDeps } from "./job-deps";

/**
 * Failures in which the site refused a secret we typed (the password, or a code after it). A replay types
 * the password again, and sites count each refusal towards locking the account, so these need an explicit
 * confirmation. `mfa_required` is not one: the site took the password and asked for a factor we lacked.
 */
export const REFUSED_SECRET_CODES: ReadonlySet<string> = new Set([
  "invalid_credentials",
  "account_locked",
  "verification_failed",
]);

export type ReplayRefusalCode = "not_found" | "not_failed" | "input_gone" | "needs_confirmation" | "busy";

/** Why a job was not replayed; `code` is stable (a dashboard maps it), the message is for people. */
export class ReplayRefused extends Error {
  constructor(
    readonly code: ReplayRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = "ReplayRefused";
  }
}

export interface ReplayOptions {
  /** Required for a job the site refused the password (or a code) of: see `REFUSED_SECRET_CODES`. */
  confirmRefusedPassword?: boolean;
  /** Who asked (a staff member's id or email), recorded on the job and logged. */
  by?: string;
}

/**
 * Runs a job that failed for good again, from its stored encrypted input, for platform staff (any org: it
 * takes a job id). The same job id is reused: the record goes back to `queued` and a worker runs it like any
 * job, so `GET /v1/jobs/{id}` and the org's webhooks report the new outcome, and its attempts keep growing.
 * The caller's HTTP request is long gone and is not answered; a new identical login joins the replay.
 *
 * Refused (ReplayRefused) when the job is missing, not failed, has no input left, needs a confirmation,
 * or when another job of the same login holds its single-flight claim (`busy`).
 */
export async function replayJob(
  deps: Pick<JobDeps, "config" | "db" | "authQueue" | "flight" | "log" | "progress">,
  jobId: string,
  options: ReplayOptions = {},
): Promise<{ jobId: string; orgId: string }> {
  const { db, flight, authQueue, config } = deps;
  const job = await db.authJobs.findForReplay(jobId);
  if (!job) throw new ReplayRefused("not_found", `no job ${jobId}`);
  if (!allows("reopenForReplay", job.status))
    throw new ReplayRefused("not_failed", `job ${jobId} is ${job.status}; only failed jobs are replayed`);
  if (!job.hasInput) throw new ReplayRefused("input_gone", `job ${jobId} no longer has its input`);
  if (job.errorCode && REFUSED_SECRET_CODES.has(job.errorCode) && !options.confirmRefusedPassword) {
    throw new ReplayRefused(
      "needs_confirmation",
      `the site refused this job's secret (${job.errorCode}); replaying types it again and may lock the account`,
    );
  }
  // Reopened first, and only from the failure read above: two replays at once, or one whose read is older
  // than another replay's whole run, never both run, and the confirmation above was asked for the failure
  // that is replayed.
  const reopenedAt = await db.jobLifecycle.reopenForReplay(job, options.by ?? null);
  if (!reopenedAt) throw new ReplayRefused("not_failed", `job ${jobId} changed meanwhile (replayed by someone else?)`);
  const payload = { authJobId: jobId, orgId: job.orgId, site: gateSite(job.loginUrl), region: job.region ?? undefined };
  let claimed = false;
  let told = false;
  try {
    // The earlier run out of the queue first: it may still be ending (its failure recorded, its release of
    // the claim and its "failed" event not yet), and neither may land on this replay.
    if (!(await removeEarlierRun(authQueue, jobId, payload.region))) {
      throw new ReplayRefused("busy", `the queue's earlier run of job ${jobId} is still active`);
    }
    // The same claim a start takes: no two runs of one login at once, and identical new logins join this one.
    const owner = await flight.claim(job.orgId, job.fingerprint, jobId, flightTtlMs(config));
    if (owner && owner !== jobId)
      throw new ReplayRefused("busy", `another job (${owner}) of the same login is running`);
    claimed = true;
    // Its event stream goes on: a client following it sees it queued again, then the new run.
    await tell(deps, jobId, "queued");
    told = true;
    // Through the same concurrency gate as a new job: a replay waits for a slot of its org and site like any job.
    await enqueueAuthJob(authQueue, payload, gateCaps(config));
  } catch (err) {
    // Back as it was: failed with its old outcome (input kept), the claim released when it was this replay's.
    const undone = await db.jobLifecycle.undoReplay(job, reopenedAt).catch(() => false);
    if (!undone)
      deps.log.error(
        { jobId, orgId: job.orgId, err: String(err) },
        "a refused replay could not put the job's failure back; the open-jobs sweep will queue it",
      );
    if (told) await tell(deps, jobId, "failed", { code: storedErrorCode(job.errorCode) }).catch(() => undefined);
    if (claimed) await flight.release(job.orgId, job.fingerprint, jobId).catch(() => undefined);
    throw err;
  }
  deps.log.info(
    { jobId, orgId: job.orgId, by: options.by ?? null, previousCode: job.errorCode, attempts: job.attempts },
    "job replayed",
  );
  return { jobId, orgId: job.orgId };
}
