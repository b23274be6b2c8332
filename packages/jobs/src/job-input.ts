import type { InputRequest } from "@authsvc/contracts";
import type { InputAnswer, PendingInput } from "@authsvc/db";
import { notifyJobInput } from "@authsvc/queue";
import { emitEvent } from "./job-events";
import type { JobDeps } from "./job-deps";
import { JobTakenOver, type OpenedJob } from "./open-job";
import { inputRequestOf } from "./view-job";
import { handoffUrl } from "./handoff-token";

/**
 * The hand-off to a person, in one place: a running job asks (its record shows `needs_input`, webhooks are
 * told), the gateway stores a person's answer and wakes it, the job takes the answer.
 * Nothing told carries the answer: it lives encrypted on the record until it is taken.
 */

/**
 * Run `job` asks a person `pending`: the record shows it, webhooks hear of it. Returns what the API shows
 * (the run tells its event stream, in order with its other steps). Throws JobTakenOver when that run no
 * longer holds the job.
 */
export async function askInput(
  deps: Pick<JobDeps, "db" | "log" | "webhookQueue" | "config">,
  job: OpenedJob,
  pending: PendingInput,
): Promise<InputRequest> {
  if (!(await deps.db.jobHandoff.askInput(job.id, job.run, pending))) throw new JobTakenOver();
  const input = inputRequestOf(
    pending,
    handoffUrl(deps.config.dashboard.url, deps.config.crypto.fingerprintKey, job.id, job.run),
  );
  // Named by ids and the site's origin: the prompt may quote the site, so it is read from the job.
  const data = {
    jobId: job.id,
    credentialId: job.credential.id,
    origin: new URL(job.loginUrl).origin,
    reason: input.reason,
    expiresAt: input.expiresAt,
    tries: pending.tries,
    handoffUrl: input.handoffUrl ?? null,
  };
  await emitEvent(deps.db, deps.webhookQueue, job.orgId, "job.needs_input", data).catch((err: unknown) =>
    deps.log.warn({ jobId: job.id, err: String(err) }, "job.needs_input not queued"),
  );
  return input;
}

/**
 * A person's answer to a job of `orgId` that waits for one: stored, then its flow is woken. "not_waiting"
 * when the job waits for nothing now (it ended, runs on, or another answer came first); "not_found" when
 * the org has no such job.
 */
export async function answerInput(
  deps: Pick<JobDeps, "db" | "authQueue">,
  orgId: string,
  jobId: string,
  answer: InputAnswer,
): Promise<"taken" | "not_waiting" | "not_found" | { wrong: string }> {
  // An answer that does not fit the question is refused before it is stored: the job keeps waiting.
  const asked = (await deps.db.authJobs.find(orgId, jobId))?.pendingInput as PendingInput | null | undefined;
  if (asked) {
    const given = Object.keys(answer);
    const wrong = answerDoesNotFit(asked, answer, given);
    if (wrong) return { wrong };
  }
  if (await deps.db.jobHandoff.answerInput(orgId, jobId, answer)) {
    await notifyJobInput(deps.authQueue, jobId);
    return "taken";
  }
  return (await deps.db.authJobs.find(orgId, jobId)) ? "not_waiting" : "not_found";
}

/** Why an answer does not fit what the job asks (null when it does): its field, or a choice not offered. */
function answerDoesNotFit(asked: PendingInput, answer: InputAnswer, given: string[]): string | null {
  if (asked.fields.length === 0)
    return given.length === 0
      ? null
      : `this step takes no field: send {} once it is done (on the hand-off page or elsewhere)`;
  // A step answered on the hand-off page itself goes by itself: the question is withdrawn, no {} needed.
  if (given.length === 0 || !asked.fields.some((f) => f === given[0]))
    return `this step takes ${asked.fields.map((f) => `"${f}"`).join(" or ")}, not ${given.length === 0 ? "{}" : `"${given[0]}"`}`;
  if ("choice" in answer && !(asked.choices ?? []).includes(answer.choice))
    return `is not one of the choices offered: ${(asked.choices ?? []).map((c) => JSON.stringify(c)).join(", ")}`;
  return null;
}
