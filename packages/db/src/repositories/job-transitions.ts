/**
 * An auth job's life as data: its statuses, every write that may change its record, from which statuses,
 * to which, and who must hold the job for the write to land. The record's conditional updates are built
 * from this table (see `heldWhere`), so a write by someone who no longer holds the job changes nothing.
 */

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type JobRecordStatus = (typeof JOB_STATUSES)[number];

/** Statuses a job ends in: no run writes it again (a replay reopens a failure, from what it read). */
export const ENDED_STATUSES = ["succeeded", "failed"] as const satisfies readonly JobRecordStatus[];
/** Statuses of a job not ended yet: waiting in the queue, or taken by a run. */
export const OPEN_STATUSES = ["queued", "running"] as const satisfies readonly JobRecordStatus[];

/**
 * Who holds the job for a write:
 * - `run`: run N, while it is the record's newest run (a run that stalled past its lock while another
 *   worker took the job writes nothing);
 * - `unrun`: the start that recorded it, while no run has taken it (its queueing failed);
 * - `open`: anyone, while the job has not ended (the queue gave up on it: no run will record its end);
 * - `claimant`: a run taking the job, while its run count is the one it read (two claims never both win);
 * - `replayer`: platform staff replaying the failure they read, or undoing that replay;
 * - `person`: someone answering the job's question (the first answer wins);
 * - `starter`: the start that records a new job.
 */
export type Holder = "run" | "unrun" | "open" | "claimant" | "replayer" | "person" | "starter";

interface Transition {
  /** Statuses the write is allowed from (none: the record is created by it). */
  from: readonly JobRecordStatus[];
  /** The status after it; the same as `from` for a write that keeps the status. */
  to: JobRecordStatus;
  holder: Holder;
}

export const JOB_TRANSITIONS = {
  record: { from: [], to: "queued", holder: "starter" },
  claim: { from: OPEN_STATUSES, to: "running", holder: "claimant" },
  markSubmitted: { from: ["running"], to: "running", holder: "run" },
  askInput: { from: ["running"], to: "running", holder: "run" },
  answerInput: { from: ["running"], to: "running", holder: "person" },
  takeInput: { from: ["running"], to: "running", holder: "run" },
  clearInput: { from: ["running"], to: "running", holder: "run" },
  requeue: { from: ["running"], to: "queued", holder: "run" },
  succeed: { from: ["running"], to: "succeeded", holder: "run" },
  fail: { from: ["running"], to: "failed", holder: "run" },
  failUnrun: { from: ["queued"], to: "failed", holder: "unrun" },
  failOpen: { from: OPEN_STATUSES, to: "failed", holder: "open" },
  reopenForReplay: { from: ["failed"], to: "queued", holder: "replayer" },
  undoReplay: { from: ["queued"], to: "failed", holder: "replayer" },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof JOB_TRANSITIONS;

/** Whether `name` is allowed from a job in `status`. */
export function allows(name: TransitionName, status: JobRecordStatus): boolean {
  return (JOB_TRANSITIONS[name].from as readonly JobRecordStatus[]).includes(status);
}

/** The status condition of a write allowed from `from`: one status, or any of several. */
function statusIn(from: readonly JobRecordStatus[]): JobRecordStatus | { in: JobRecordStatus[] } {
  return from.length === 1 ? from[0]! : { in: [...from] };
}

/**
 * The condition of transition `name`'s write on job `id`, with what its holder adds (`held`: the run
 * number, the failure or the org read before): the write lands only while the job is in a status it is
 * allowed from, still held that way.
 */
export function heldWhere<H extends Record<string, unknown>>(name: TransitionName, id: string, held: H) {
  return { id, ...held, status: statusIn(JOB_TRANSITIONS[name].from) };
}

/** The status a write of transition `name` sets; nothing for a write that keeps the status. */
export function statusAfter(name: TransitionName): { status?: JobRecordStatus } {
  const t: Transition = JOB_TRANSITIONS[name];
  return t.from.length === 1 && t.from[0] === t.to ? {} : { status: t.to };
}

/** Who writes a job's end: run N of it, or `"unrun"` for a job no run has taken. */
export type Writer = number | "unrun";

/** The transition a writer ends a job as failed by, and the condition it adds (see `Holder`). */
export function failureBy(writer: Writer | "open"): {
  name: "fail" | "failUnrun" | "failOpen";
  held: { attempts?: number };
} {
  if (writer === "open") return { name: "failOpen", held: {} };
  if (writer === "unrun") return { name: "failUnrun", held: {} };
  return { name: "fail", held: { attempts: writer } };
}

/** Whether run `run` holds a job as read (`record`): the in-memory twin of a `run` holder's write condition. */
export function isHeldByRun(record: { status: JobRecordStatus; attempts: number }, run: number): boolean {
  return record.attempts === run && allows("succeed", record.status);
}
