import { startEntrySignIn, viewEntryLink, type TypedCredential } from "./entry-links";
import type { EntryLinkResource } from "@authsvc/contracts";
import type {
  InputRequest,
  JobEventType,
  SessionResponse,
  WebhookEvent,
  WebhookEventType,
  JobResource,
} from "@authsvc/contracts";
import type { InputAnswer, PendingInput } from "@authsvc/db";
import { answerInput, askInput } from "./job-input";
import { jobProgressOf, workerRegionsOf, type JobEventFields, type PrefetchedEntry } from "@authsvc/queue";
import { cachedSession } from "./cached-session";
import { abandonJob, failJob, type JobFailure } from "./fail-job";
import { succeedJob, type LoginSuccess, type SignupSuccess } from "./succeed-job";
import { emitEvent } from "./job-events";
import { tell, type JobDeps } from "./job-deps";
import { whileUnreachable } from "@authsvc/db";
import { DATABASE_WAIT_MS, markSubmitted, openJob, type OpenedJob } from "./open-job";
import { replayJob, type ReplayOptions } from "./replay-job";
import { loginFingerprint, signupFingerprint, type SessionIdentity } from "./session-keys";
import { startJob, type StartJob } from "./start-job";
import { sweepOpenJobs } from "./sweep-open-jobs";
import { viewJob } from "./view-job";

/**
 * The jobs facade: an auth job's whole life, the API every other room calls: the gateway starts jobs, reads
 * cached sessions and views jobs; keep-alive starts jobs; platform staff replay failed ones; the worker opens
 * a job, runs the flow and hands the outcome to `succeed` or `fail`. Each step of the life happens here only.
 * Beneath it, the record: `db.authJobs` (AuthJobRows, reads), `db.jobLifecycle` (every status change, by the
 * transitions table) and `db.jobHandoff` (a person's question and answer), in packages/db.
 */
export class AuthJobs {
  private readonly deps: JobDeps;

  constructor(deps: Omit<JobDeps, "progress" | "regions"> & Partial<Pick<JobDeps, "progress" | "regions">>) {
    this.deps = {
      ...deps,
      progress: deps.progress ?? jobProgressOf(deps.authQueue),
      regions: deps.regions ?? workerRegionsOf(deps.authQueue),
    };
  }

  /** The cache and single-flight key of a login of this identity. */
  loginKey(orgId: string, login: SessionIdentity): string {
    return loginFingerprint(this.deps.config.crypto.fingerprintKey, orgId, login);
  }

  /** The single-flight key of a signup: identical concurrent signups share one job. */
  signupKey(orgId: string, signup: Parameters<typeof signupFingerprint>[2]): string {
    return signupFingerprint(this.deps.config.crypto.fingerprintKey, orgId, signup);
  }

  cachedSession(orgId: string, login: SessionIdentity, prefetched?: PrefetchedEntry): Promise<SessionResponse | null> {
    return cachedSession(this.deps, orgId, login, prefetched);
  }

  /** The Redis key of the session cached for a login of this identity (for a read ahead). */
  cachedSessionKey(orgId: string, login: SessionIdentity): string {
    return this.deps.cache.key(orgId, this.loginKey(orgId, login));
  }

  /** An entry link as the API shows it (see entry-links). */
  viewEntryLink(link: Parameters<typeof viewEntryLink>[1]): Promise<EntryLinkResource> {
    return viewEntryLink(this.deps, link);
  }

  /** Starts an entry link's sign-in with what its end user typed; null when the link takes none now. */
  startEntrySignIn(link: Parameters<typeof startEntrySignIn>[1], typed: TypedCredential): Promise<string | null> {
    return startEntrySignIn(this.deps, link, typed);
  }

  start(job: StartJob): Promise<string> {
    return startJob(this.deps, job);
  }

  view(orgId: string, jobId: string): Promise<JobResource | null> {
    return viewJob(this.deps, orgId, jobId);
  }

  open(orgId: string, jobId: string, attempt: number): Promise<OpenedJob> {
    return openJob(this.deps, orgId, jobId, attempt);
  }

  markSubmitted(job: OpenedJob): Promise<void> {
    return markSubmitted(this.deps, job);
  }

  /** A step of a running job its clients follow (navigating, form_found, waiting_for_email …); never a secret. */
  tell(job: OpenedJob, type: JobEventType, fields?: JobEventFields): Promise<void> {
    return tell(this.deps, job.id, type, { attempt: job.attempt, ...fields });
  }

  /** Run `job` asks a person (the hand-off); throws JobTakenOver when that run no longer holds the job. */
  askInput(job: OpenedJob, pending: PendingInput): Promise<InputRequest> {
    return askInput(this.deps, job, pending);
  }

  /** The answer a person gave to run `job`'s question, taken; null while none came. */
  takeInput(job: OpenedJob): Promise<InputAnswer | null> {
    return this.deps.db.jobHandoff.takeInput(job.orgId, job.id, job.run);
  }

  /** Run `job` waits for a person no longer (timed out, or stopping). */
  clearInput(job: OpenedJob): Promise<void> {
    return this.deps.db.jobHandoff.clearInput(job.id, job.run);
  }

  /** How many of the org's jobs wait for a person now. */
  waitingForInput(orgId: string): Promise<number> {
    return this.deps.db.authJobs.waitingForInput(orgId);
  }

  /** POST /v1/jobs/{id}/input: a person's answer, for a job of `orgId` that waits for one. */
  answerInput(orgId: string, jobId: string, answer: InputAnswer): ReturnType<typeof answerInput> {
    return answerInput(this.deps, orgId, jobId, answer);
  }

  /** Stores a signed-in outcome, waiting out a database restart: the login is not run again if this fails. */
  succeed(job: OpenedJob, outcome: LoginSuccess | SignupSuccess): Promise<{ sessionId: string }> {
    return whileUnreachable(() => succeedJob(this.deps, job, outcome), DATABASE_WAIT_MS);
  }

  fail(job: OpenedJob, failure: JobFailure, maxAttempts: number): Promise<"retry" | "final" | "stale"> {
    return failJob(this.deps, job, failure, maxAttempts);
  }

  /** Platform staff: runs a job that failed for good again from its stored input (see `replayJob`). */
  replay(jobId: string, options?: ReplayOptions): Promise<{ jobId: string; orgId: string }> {
    return replayJob(this.deps, jobId, options);
  }

  abandon(orgId: string, jobId: string, reason: string): Promise<void> {
    return abandonJob(this.deps, orgId, jobId, reason);
  }

  /** Ends or queues again jobs open in the database that the queue no longer runs (see `sweepOpenJobs`). */
  sweepOpen(now?: number): Promise<{ requeued: number; ended: number }> {
    return sweepOpenJobs(this.deps, now);
  }

  /** An event about a credential or session that no job run ended (keep-alive's `session.expired`). */
  emit(orgId: string, type: WebhookEventType, data: WebhookEvent["data"]): Promise<void> {
    return emitEvent(this.deps.db, this.deps.webhookQueue, orgId, type, data);
  }
}
