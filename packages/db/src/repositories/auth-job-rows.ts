import { DbNull, type Prisma } from "../prisma-client";
import { ENDED_STATUSES, OPEN_STATUSES } from "./job-transitions";

/**
 * The auth job records as read: by the API, the hand-off page, the open-jobs sweep and a replay; and their
 * retention. Nothing here changes a job's status: that is `AuthJobLifecycle`'s.
 */
export class AuthJobRows {
  constructor(private readonly prisma: Prisma) {}

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
          { status: { in: [...ENDED_STATUSES] } },
          { status: "running", pendingInput: { not: DbNull }, inputAnswer: null },
        ],
      },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /** Whether the job's question has an answer the worker has not taken yet. */
  async answered(id: string): Promise<boolean> {
    return (await this.prisma.authJob.count({ where: { id, inputAnswer: { not: null } } })) > 0;
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
      where: { status: { in: [...OPEN_STATUSES] }, createdAt: { lt: before } },
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
    const where = { status: { in: [...ENDED_STATUSES] }, finishedAt: { lt: cutoff } };
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
}

/** A failed job as `findForReplay` read it: what a replay reopens from, and puts back when it is undone. */
export type ReplaySeen = NonNullable<Awaited<ReturnType<AuthJobRows["findForReplay"]>>>;

/** What a replay clears of a failed job's outcome, and puts back when it is undone. */
export const REPLAY_CLEARS = {
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
