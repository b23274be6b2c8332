import type { JobInput, JobKind } from "@authsvc/contracts";
import { loginPageOf } from "@authsvc/contracts";
import { whileUnreachable } from "@authsvc/db";
import { tell, type JobDeps } from "./job-deps";

/** A job a worker runs: its record, decrypted input and credential. Only a worker process holds one. */
export interface OpenedJob {
  id: string;
  orgId: string;
  attempt: number;
  /** This run's number on the record; a run that is no longer the newest may not submit (markSubmitted). */
  run: number;
  kind: JobKind;
  loginUrl: string;
  /** Learned flows are kept per login page: a site may have several. */
  loginPage: string;
  fingerprint: string;
  input: JobInput;
  /** The caller allowed a hand-off to a person (`allowHandoff`). */
  allowHandoff: boolean;
  /** `collectionId`: the collection's internal id, null outside any collection. */
  /** `proxyId`: the proxy it keeps; `browserProfile`: the browser it shows sites, once one was chosen. */
  credential: {
    id: string;
    collectionId: string | null;
    siteOrigin: string;
    username: string;
    lastLoginAt: Date | null;
    proxyId: string | null;
    browserProfile: unknown;
  };
  /** The flow learned on this login page, as stored (null for a signup, or when it cannot be read). */
  learnedFlow: unknown;
  started: number;
}

/**
 * How long a run waits for a database that cannot be reached (restarting, failing over) before it gives up:
 * long enough for a restart, short against the job's own time limit. Without it a job's retries were all
 * spent within a few seconds of backoff while the database was away.
 */
export const DATABASE_WAIT_MS = 20_000;

/**
 * The job was taken over by another run while this one was stalled (its worker paused longer than its
 * claim): this run must stop without submitting, and without touching the record, which is the other run's.
 */
export class JobTakenOver extends Error {
  constructor() {
    super("taken_over");
    this.name = "JobTakenOver";
  }
}

/** Why a job must not run: final, never retried. The message goes to the queue (no site's words in it). */
export class JobNotRunnable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "JobNotRunnable";
  }
}

/**
 * Takes a queued job for a run: marks its record running and returns what the flow needs. A fault here
 * (database away) is thrown as is, for the queue to retry. A job whose record, input or credential is gone
 * is not runnable; one an earlier run submitted and did not finish (crash, out of memory, forced exit) is
 * ended as `login_unconfirmed`: its outcome is unknown, and submitting again could lock the account.
 */
export async function openJob(
  deps: Pick<JobDeps, "db" | "flight" | "progress" | "log">,
  orgId: string,
  jobId: string,
  attempt: number,
): Promise<OpenedJob> {
  const { db, flight } = deps;
  const record = await whileUnreachable(() => db.jobLifecycle.claim(orgId, jobId, attempt), DATABASE_WAIT_MS);
  // The queue ran it again after a run had ended it (that run's claim lapsed as it finished): nothing to do.
  if (record?.ended)
    throw new JobNotRunnable(record.status, `the job ${record.status} already; an earlier run ended it`);
  if (!record?.input) throw new JobNotRunnable("internal_error", "job record or its input is missing");
  const credential = await db.credentials.find(orgId, record.credentialId);
  if (!credential) throw new JobNotRunnable("internal_error", "credential is missing");
  if (record.submittedAt) {
    const message = `an earlier run submitted the ${record.kind === "signup" ? "signup form" : "password"} and was interrupted; not submitting again`;
    // Ended by this run, the newest: a run that took the job meanwhile ends it itself.
    if (await db.jobLifecycle.fail(jobId, record.run, "login_unconfirmed", message)) {
      await flight.release(orgId, record.fingerprint, jobId);
      await tell(deps, jobId, "failed", { code: "login_unconfirmed" });
    }
    throw new JobNotRunnable("login_unconfirmed", "login_unconfirmed");
  }
  const loginPage = loginPageOf(record.loginUrl);
  // A flow we cannot read (database away, older shape) only costs detection time. Signups learn none.
  const learnedFlow = record.kind === "signup" ? null : await db.learnedFlows.find(orgId, loginPage).catch(() => null);
  await tell(deps, jobId, "started", { attempt });
  return {
    id: jobId,
    orgId,
    attempt,
    run: record.run,
    kind: record.kind as JobKind,
    loginUrl: record.loginUrl,
    loginPage,
    fingerprint: record.fingerprint,
    input: record.input,
    allowHandoff: record.allowHandoff,
    credential: {
      id: credential.id,
      collectionId: credential.collectionId ?? null,
      siteOrigin: credential.siteOrigin,
      username: credential.username,
      lastLoginAt: credential.lastLoginAt,
      proxyId: credential.proxyId ?? null,
      browserProfile: credential.browserProfile ?? null,
    },
    learnedFlow,
    started: Date.now(),
  };
}

/**
 * Records, before it happens, that the job is about to submit its password or signup form (the page waits
 * for the database). Throws JobTakenOver when another run has the job now: two runs never both submit.
 */
export async function markSubmitted(deps: Pick<JobDeps, "db" | "progress" | "log">, job: OpenedJob): Promise<void> {
  if (!(await whileUnreachable(() => deps.db.jobLifecycle.markSubmitted(job.id, job.run), DATABASE_WAIT_MS)))
    throw new JobTakenOver();
  await tell(deps, job.id, "submitted", { attempt: job.attempt });
}
