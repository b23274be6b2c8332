import { newId, rowAad, type Envelope } from "@authsvc/crypto";
import type { HandoffReason, JobInput, JobKind, LoginMethod, SignupAccount, SignupMethod } from "@authsvc/contracts";
import { DbNull, type Prisma } from "../prisma-client";

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

/** What a job waiting for a person asks, as the record keeps it (never a secret). */
export interface PendingInput {
  reason: HandoffReason;
  prompt: string;
  fields: string[];
  choices?: string[];
  /** When the hand-off ends unanswered (ISO 8601). */
  expiresAt: string;
  /** Answers given so far (a refused code asks again). */
  tries: number;
}

/** A person's answer to a job's question. */
export type InputAnswer = { code: string } | { choice: string } | { answer: string } | Record<string, never>;

export class AuthJobs {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  async create(job: NewAuthJob, id = newId("job")) {
    const { input, ...fields } = job;
    return this.prisma.authJob.create({
      data: { id, ...fields, input: this.envelope.encryptJson(input, rowAad(job.orgId, id)) },
    });
  }

  find(orgId: string, id: string) {
    return this.prisma.authJob.findFirst({ where: { id, orgId } });
  }

  /**
   * Whether a request waiting for the job can answer now: it reached a final state, or it waits for a
   * person's input nobody gave yet. Tells a queue event's wake-up from the real thing.
   */
  async isSettled(id: string): Promise<boolean> {
    return (await this.settledAmong([id])).length > 0;
  }

  /** Which of these jobs are settled (see `isSettled`), in one query for every request a gateway has waiting. */
  async settledAmong(ids: string[]): Promise<string[]> {
    const rows = await this.prisma.authJob.findMany({
      where: {
        id: { in: ids },
        OR: [
          { status: { in: ["succeeded", "failed"] } },
          { status: "running", pendingInput: { not: DbNull }, inputAnswer: null },
        ],
      },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /**
   * Run `run` of the job asks a person (`pending`); any earlier answer is gone. False when that run no
   * longer holds the job.
   */
  async askInput(id: string, run: number, pending: PendingInput): Promise<boolean> {
    const { count } = await this.prisma.authJob.updateMany({
      where: heldBy(id, run),
      data: { pendingInput: { ...pending }, inputAnswer: null },
    });
    return count === 1;
  }

  /**
   * Stores a person's answer to the job's question, encrypted: only while the job waits for one and none
   * was given (two answers at once: the first wins). False otherwise.
   */
  async answerInput(orgId: string, id: string, answer: InputAnswer): Promise<boolean> {
    const { count } = await this.prisma.authJob.updateMany({
      where: { id, orgId, status: "running", pendingInput: { not: DbNull }, inputAnswer: null },
      data: { inputAnswer: this.envelope.encryptJson(answer, rowAad(orgId, `${id}:input`)) },
    });
    return count === 1;
  }

  /** The answer given to run `run`'s question, taken (the question is cleared with it); null while none came. */
  async takeInput(orgId: string, id: string, run: number): Promise<InputAnswer | null> {
    const rows = await this.prisma.$queryRaw<Array<{ answer: string }>>`
      WITH taken AS (
        SELECT id, input_answer FROM auth_jobs
        WHERE id = ${id} AND attempts = ${run} AND status = 'running' AND input_answer IS NOT NULL
        FOR UPDATE
      )
      UPDATE auth_jobs a SET input_answer = NULL, pending_input = NULL FROM taken WHERE a.id = taken.id
      RETURNING taken.input_answer AS answer`;
    const sealed = rows[0]?.answer;
    return sealed ? this.envelope.decryptJson<InputAnswer>(sealed, rowAad(orgId, `${id}:input`)) : null;
  }

  /** Whether the job's question has an answer the worker has not taken yet. */
  async answered(id: string): Promise<boolean> {
    return (await this.prisma.authJob.count({ where: { id, inputAnswer: { not: null } } })) > 0;
  }

  /** Run `run` stops waiting for a person (it timed out, or the run is ending). */
  async clearInput(id: string, run: number): Promise<void> {
    await this.prisma.authJob.updateMany({ where: heldBy(id, run), data: { pendingInput: DbNull, inputAnswer: null } });
  }

  /**
   * A job as its hosted hand-off page sees it, across tenants (the page's token names the job): its run,
   * its state, its question, its site and its organization's name. Never its input.
   */
  forHandoff(id: string) {
    return this.prisma.authJob.findUnique({
      where: { id },
      select: {
        id: true,
        orgId: true,
        status: true,
        attempts: true,
        pendingInput: true,
        loginUrl: true,
        errorCode: true,
        errorMessage: true,
        org: { select: { name: true } },
      },
    });
  }

  /** How many of the org's jobs wait for a person now (the per-organization cap). */
  waitingForInput(orgId: string): Promise<number> {
    return this.prisma.authJob.count({ where: { orgId, status: "running", pendingInput: { not: DbNull } } });
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
      if (row.status === "succeeded" || row.status === "failed")
        return { ...row, input: null, run: row.attempts, ended: true as const };
      // `run` is this run's number: only the newest run may mark the submit (see markSubmitted). Compared
      // with what was read, so two runs claiming at once never get the same number.
      const run = Math.max(row.attempts + 1, attempt);
      const { count } = await this.prisma.authJob.updateMany({
        where: { id, attempts: row.attempts },
        data: { status: "running", attempts: run, startedAt: row.startedAt ?? new Date() },
      });
      if (count === 0) continue;
      const input = row.input ? this.envelope.decryptJson<JobInput>(row.input, rowAad(orgId, id)) : null;
      return { ...row, input, run, ended: false as const };
    }
  }

  /**
   * Records, before it happens, that this job is about to submit the password; false when run `run` is no
   * longer the job's newest (another worker took the job over while this one was stalled): it must not submit.
   */
  async markSubmitted(id: string, run: number): Promise<boolean> {
    const { count } = await this.prisma.authJob.updateMany({
      where: { id, attempts: run, status: "running" },
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
    const ended = await this.finish(id, run, {
      status: "succeeded",
      sessionId,
      flowSource,
      ...(signup ? { fingerprint: signup.fingerprint, account: { ...signup.account } } : {}),
    });
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
    return (
      (await this.finish(id, writer, {
        status: "failed",
        errorCode,
        errorMessage,
        ...(errorDetails?.length ? { errorDetails } : {}),
      })) !== null
    );
  }

  /**
   * Ends a job that is still open as failed, whichever run holds it (the queue gave up on it: no run will
   * record its end); a job that already ended is left as it is. Returns the fingerprint when it ended the
   * job, so the caller can release its single-flight claim.
   */
  async failIfUnfinished(id: string, errorCode: string, errorMessage: string): Promise<string | null> {
    return this.finish(id, "open", { status: "failed", errorCode, errorMessage });
  }

  /**
   * Records the end of a job, if `writer` still holds it; returns its fingerprint, or null when nothing was
   * ended. Success erases the input (the secret now lives on the credential); a failure keeps it,
   * encrypted, for a replay.
   */
  private async finish(
    id: string,
    writer: Writer | "open",
    end:
      | {
          status: "succeeded";
          sessionId: string;
          flowSource: string;
          fingerprint?: string;
          account?: Record<string, string | boolean | null>;
        }
      | {
          status: "failed";
          errorCode: string;
          errorMessage: string;
          errorDetails?: Array<{ field: string; message: string }>;
        },
  ): Promise<string | null> {
    const row = await this.prisma.authJob.findUnique({
      where: { id },
      select: { createdAt: true, replayedAt: true, fingerprint: true },
    });
    if (!row) return null;
    // A replayed job's duration is its replay's, not the days since it was first created.
    const since = row.replayedAt ?? row.createdAt;
    const { count } = await this.prisma.authJob.updateMany({
      where: heldBy(id, writer),
      data: {
        ...end,
        ...(end.status === "succeeded" ? { input: null } : {}),
        pendingInput: DbNull,
        inputAnswer: null,
        finishedAt: new Date(),
        durationMs: Date.now() - since.getTime(),
      },
    });
    return count > 0 ? row.fingerprint : null;
  }

  /** The job's newest run as the record has it (status, run number, session, cache key): tells a write that landed from a stale one. */
  runOf(id: string) {
    return this.prisma.authJob.findUnique({
      where: { id },
      select: { status: true, attempts: true, sessionId: true, fingerprint: true },
    });
  }

  /** The login URL of the newest job that succeeded under a cache key; null when none did. */
  async succeededLoginUrl(orgId: string, fingerprint: string): Promise<string | null> {
    const row = await this.prisma.authJob.findFirst({
      where: { orgId, fingerprint, status: "succeeded" },
      orderBy: { finishedAt: "desc" },
      select: { loginUrl: true },
    });
    return row?.loginUrl ?? null;
  }

  /** Jobs still queued or running that were created before `before`, oldest first, across all tenants (the open-jobs sweep). */
  listOpen(before: Date, limit: number) {
    return this.prisma.authJob.findMany({
      where: { status: { in: ["queued", "running"] }, createdAt: { lt: before } },
      orderBy: { createdAt: "asc" },
      take: limit,
      select: {
        id: true,
        orgId: true,
        loginUrl: true,
        region: true,
        status: true,
        submittedAt: true,
        startedAt: true,
        createdAt: true,
        replayedAt: true,
      },
    });
  }

  /** Retention sweep, across all tenants: deletes records of jobs that finished before `cutoff`. */
  async deleteFinishedBefore(cutoff: Date): Promise<number> {
    const where = { status: { in: ["succeeded" as const, "failed" as const] }, finishedAt: { lt: cutoff } };
    return (await this.prisma.authJob.deleteMany({ where })).count;
  }

  /** A job as platform staff see it before a replay, across tenants: whether it failed and kept its input. */
  async findForReplay(id: string) {
    const row = await this.prisma.authJob.findUnique({
      where: { id },
      select: {
        id: true,
        orgId: true,
        status: true,
        fingerprint: true,
        loginUrl: true,
        region: true,
        attempts: true,
        input: true,
        ...REPLAY_CLEARS,
      },
    });
    if (!row) return null;
    const { input, ...rest } = row;
    return { ...rest, hasInput: input !== null };
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
      where: {
        id: seen.id,
        status: "failed",
        attempts: seen.attempts,
        finishedAt: seen.finishedAt,
        input: { not: null },
      },
      data: {
        ...Object.fromEntries(Object.keys(REPLAY_CLEARS).map((k) => [k, null])),
        status: "queued",
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
      where: { id: seen.id, status: "queued", attempts: seen.attempts, replayedAt: reopenedAt },
      data: { ...kept, status: "failed" },
    });
    return count === 1;
  }

  /** Back to the queue after run `run`'s transient fault; the input is kept for the next attempt. False when that run no longer holds the job. */
  async requeue(id: string, run: number, errorCode: string, errorMessage: string): Promise<boolean> {
    const { count } = await this.prisma.authJob.updateMany({
      where: heldBy(id, run),
      data: { status: "queued", errorCode, errorMessage, pendingInput: DbNull, inputAnswer: null },
    });
    return count > 0;
  }
}

/** A failed job as `findForReplay` read it: what a replay reopens from, and puts back when it is undone. */
export type ReplaySeen = NonNullable<Awaited<ReturnType<AuthJobs["findForReplay"]>>>;

/** What a replay clears of a failed job's outcome, and puts back when it is undone. */
const REPLAY_CLEARS = {
  errorCode: true,
  errorMessage: true,
  sessionId: true,
  flowSource: true,
  durationMs: true,
  startedAt: true,
  submittedAt: true,
  finishedAt: true,
  replayedAt: true,
  replayedBy: true,
} as const;

/** Who writes a job's end: run N of it, or `"unrun"` for a job no run has taken. */
export type Writer = number | "unrun";

/**
 * The job, as long as `writer` holds it: run N while it is the record's newest run and still running (a
 * run that stalled past its lock while another worker took the job writes nothing); a queued job no run
 * took; or (`"open"`) any job that has not ended.
 */
function heldBy(id: string, writer: Writer | "open") {
  if (writer === "open") return { id, status: { notIn: ["succeeded" as const, "failed" as const] } };
  if (writer === "unrun") return { id, status: "queued" as const };
  return { id, attempts: writer, status: "running" as const };
}
