import { rowAad, type Envelope } from "@authsvc/crypto";
import type { HandoffReason, InputField } from "@authsvc/contracts";
import { DbNull, type Prisma } from "../prisma-client";
import { heldWhere } from "./job-transitions";

/** What a job waiting for a person asks, as the record keeps it (never a secret). */
export interface PendingInput {
  reason: HandoffReason;
  prompt: string;
  fields: InputField[];
  choices?: string[];
  /** When the hand-off ends unanswered (ISO 8601). */
  expiresAt: string;
  /** Answers given so far (a refused code asks again). */
  tries: number;
}

/** A person's answer to a job's question. */
export type InputAnswer = { code: string } | { choice: string } | { answer: string } | Record<string, never>;

/**
 * A running job's question to a person and its answer, on the job's record: asked and cleared by the run
 * that holds the job, answered once by a person, taken by that run (see `JOB_TRANSITIONS`).
 */
export class AuthJobHandoff {
  constructor(
    private readonly prisma: Prisma,
    private readonly envelope: Envelope,
  ) {}

  /**
   * Run `run` of the job asks a person (`pending`); any earlier answer is gone. False when that run no
   * longer holds the job.
   */
  async askInput(id: string, run: number, pending: PendingInput): Promise<boolean> {
    const { count } = await this.prisma.authJob.updateMany({
      where: heldWhere("askInput", id, { attempts: run }),
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
      where: heldWhere("answerInput", id, { orgId, pendingInput: { not: DbNull }, inputAnswer: null }),
      data: { inputAnswer: this.envelope.encryptJson(answer, rowAad(orgId, `${id}:input`)) },
    });
    return count === 1;
  }

  /**
   * The answer given to run `run`'s question, taken (the question is cleared with it); null while none came.
   * Held as `takeInput` is (the run, running), written in SQL: the answer is read and cleared at once.
   */
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

  /** Run `run` stops waiting for a person (it timed out, or the run is ending). */
  async clearInput(id: string, run: number): Promise<void> {
    await this.prisma.authJob.updateMany({
      where: heldWhere("clearInput", id, { attempts: run }),
      data: { pendingInput: DbNull, inputAnswer: null },
    });
  }
}
