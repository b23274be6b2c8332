import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import {
  readJobInput,
  type JobInput,
  type JobKind,
  type LoginMethod,
  type SignupAccount,
  type SignupMethod,
  type StoredJobInput,
} from "@authsvc/contracts";
import { DbNull, type Prisma } from "../prisma-client";
import { REPLAY_CLEARS, type ReplaySeen } from "./auth-job-rows";
import { allows, failureBy, heldWhere, statusAfter, type TransitionName, type Writer } from "./job-transitions";

export interface NewAuthJob {
  orgId: string;
  credentialId: string;
  /**
   * `refresh`: a login run with a stored credential's secret (POST /v1/refresh); `signup`: POST /v1/signup;
   * `verify`: a pending signup's confirmation, then a login with its secret (POST /v1/credentials/{id}/verify).
   */
  kind: JobKind;
  method: LoginMethod | SignupMethod;
  loginUrl: string;
  fingerprint: string;
  useCache: boolean;
  requestId?: string;
  input: JobInput;
  /** The caller allowed a hand-off to a person (`allowHandoff`). */
  allowHandoff?: boolean;
  /** The worker region it runs in (null or absent: any worker). */
  region?: string | null;
}

/**
 * Every change of an auth job's status, each a write of the table in `job-transitions` that lands only
 * while its holder still holds the job. Reads are `AuthJobRows`; a person's questions `AuthJobHandoff`.
 */
export class AuthJobLifecycle {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /** Records a new job, `queued`, its input encrypted. */
  async create(job: NewAuthJob, id = newId("job")) {
    const { input, ...fields } = job;
    return this.prisma.authJob.create({
      data: { id, ...fields, ...statusAfter("record"), input: this.envelope.encryptJson(input, rowAad(job.orgId, id)) },
    });
  }

  /**
   * The job with its decrypted input, for the worker; null when the job or its input is gone. `attempt` is
   * the queue's count for this run; the record counts every run, replays included, so it never goes down.
   */
  async claim(orgId: string, id: string, attempt: number) {
    for (;;) {
      const row = await this.prisma.authJob.findFirst({ where: { id, orgId }, omit: { input: false } });
      if (!row) return null;
      // Ended already: a run finished it and the queue lost its claim before it heard (a stall). The record
      // is that run's answer; running again would overwrite it.
      if (!allows("claim", row.status)) return { ...row, input: null, run: row.attempts, ended: true as const };
      // `run` is this run's number: only the newest run may mark the submit (see markSubmitted). Compared
      // with what was read, so two runs claiming at once never get the same number; and only while the job
      // is open, so a run that ends it meanwhile (its number unchanged) is not overwritten: read again.
      const run = Math.max(row.attempts + 1, attempt);
      const { count } = await this.prisma.authJob.updateMany({
        where: heldWhere("claim", id, { attempts: row.attempts }),
        data: { ...statusAfter("claim"), attempts: run, startedAt: row.startedAt ?? new Date() },
      });
      if (count === 0) continue;
      const input = row.input
        ? readJobInput(this.envelope.decryptJson<StoredJobInput>(row.input, rowAad(orgId, id)))
        : null;
      return { ...row, input, run, ended: false as const };
    }
  }

  /**
   * Records, before it happens, that this job is about to submit the password; false when run `run` is no
   * longer the job's newest (another worker took the job over while this one was stalled): it must not submit.
   */
  async markSubmitted(id: string, run: number): Promise<boolean> {
    const { count } = await this.prisma.authJob.updateMany({
      where: heldWhere("markSubmitted", id, { attempts: run }),
      data: { submittedAt: new Date() },
    });
    return count === 1;
  }

  /**
   * Ends run `run` of the job successfully and erases its input: the secret now lives only on the
   * credential. A signup passes its account and the cache key its session was stored under (a login's), so
   * keep-alive and deletion find the session. False when that run no longer holds the job (a newer run took
   * it over, or it already ended): nothing is written.
   */
  async succeed(
    id: string,
    run: number,
    sessionId: string,
    flowSource: string,
    signup?: { fingerprint: string; account: SignupAccount },
  ): Promise<boolean> {
    const ended = await this.finish(
      id,
      "succeed",
      { attempts: run },
      {
        sessionId,
        flowSource,
        ...(signup ? { fingerprint: signup.fingerprint, account: { ...signup.account } } : {}),
      },
    );
    return ended !== null;
  }

  /**
   * Ends the job as failed, written by `writer`: run N, while it is the newest run and still running; or
   * `"unrun"`, a job no run has taken (its queueing failed). False when the writer no longer holds the job.
   */
  async fail(
    id: string,
    writer: Writer,
    errorCode: string,
    errorMessage: string,
    errorDetails?: Array<{ field: string; message: string }>,
  ): Promise<boolean> {
    const { name, held } = failureBy(writer);
    const end = { errorCode, errorMessage, ...(errorDetails?.length ? { errorDetails } : {}) };
    return (await this.finish(id, name, held, end)) !== null;
  }

  /**
   * Ends a job that is still open as failed, whichever run holds it (the queue gave up on it: no run will
   * record its end); a job that already ended is left as it is. Returns the fingerprint when it ended the
   * job, so the caller can release its single-flight claim.
   */
  async failIfUnfinished(id: string, errorCode: string, errorMessage: string): Promise<string | null> {
    const { name, held } = failureBy("open");
    return this.finish(id, name, held, { errorCode, errorMessage });
  }

  /**
   * Records the end of a job by transition `name`, if its holder (`held`) still holds it; returns its
   * fingerprint, or null when nothing was ended. Success erases the input (the secret now lives on the
   * credential); a failure keeps it, encrypted, for a replay.
   */
  private async finish(
    id: string,
    name: Extract<TransitionName, "succeed" | "fail" | "failUnrun" | "failOpen">,
    held: { attempts?: number },
    end:
      | {
          sessionId: string;
          flowSource: string;
          fingerprint?: string;
          account?: Record<string, string | boolean | null>;
        }
      | { errorCode: string; errorMessage: string; errorDetails?: Array<{ field: string; message: string }> },
  ): Promise<string | null> {
    const row = await this.prisma.authJob.findUnique({
      where: { id },
      select: { createdAt: true, replayedAt: true, fingerprint: true },
    });
    if (!row) return null;
    // A replayed job's duration is its replay's, not the days since it was first created.
    const since = row.replayedAt ?? row.createdAt;
    const after = statusAfter(name);
    const { count } = await this.prisma.authJob.updateMany({
      where: heldWhere(name, id, held),
      data: {
        ...after,
        ...end,
        ...(after.status === "succeeded" ? { input: null } : {}),
        pendingInput: DbNull,
        inputAnswer: null,
        finishedAt: new Date(),
        durationMs: Date.now() - since.getTime(),
      },
    });
    return count > 0 ? row.fingerprint : null;
  }

  /**
   * Puts a job that failed for good, with its input, back to `queued` for a replay: its outcome (error,
   * session, times, the submit mark) is cleared, its attempts are kept. Only from the failure the caller
   * read (`seen`, from `findForReplay`: its attempt and when it ended): null when the job is no longer that
   * failure (someone replayed it first, even if that replay has ended since), so two replays never both run.
   * Returns the replay's time, which `undoReplay` asks for.
   */
  async reopenForReplay(seen: ReplaySeen, by: string | null): Promise<Date | null> {
    const at = new Date();
    const { count } = await this.prisma.authJob.updateMany({
      where: heldWhere("reopenForReplay", seen.id, {
        attempts: seen.attempts,
        finishedAt: seen.finishedAt,
        input: { not: null },
      }),
      data: {
        ...Object.fromEntries(Object.keys(REPLAY_CLEARS).map((k) => [k, null])),
        ...statusAfter("reopenForReplay"),
        replayedAt: at,
        replayedBy: by,
      },
    });
    return count === 1 ? at : null;
  }

  /**
   * Undoes the replay `reopenForReplay` began at `reopenedAt` while no run has taken it (it could not be
   * queued): the job is failed again with the outcome it had before (`seen`), times and who replayed it last
   * included. False when the job has moved on since.
   */
  async undoReplay(seen: ReplaySeen, reopenedAt: Date): Promise<boolean> {
    const kept = Object.fromEntries(Object.keys(REPLAY_CLEARS).map((k) => [k, seen[k as keyof typeof REPLAY_CLEARS]]));
    const { count } = await this.prisma.authJob.updateMany({
      where: heldWhere("undoReplay", seen.id, { attempts: seen.attempts, replayedAt: reopenedAt }),
      data: { ...kept, ...statusAfter("undoReplay") },
    });
    return count === 1;
  }

  /** Back to the queue after run `run`'s transient fault; the input is kept for the next attempt. False when that run no longer holds the job. */
  async requeue(id: string, run: number, errorCode: string, errorMessage: string): Promise<boolean> {
    const { count } = await this.prisma.authJob.updateMany({
      where: heldWhere("requeue", id, { attempts: run }),
      data: { ...statusAfter("requeue"), errorCode, errorMessage, pendingInput: DbNull, inputAnswer: null },
    });
    return count > 0;
  }
}
