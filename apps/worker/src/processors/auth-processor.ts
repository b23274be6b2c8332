import { UnrecoverableError, type Job } from "bullmq";
import { LoginFlowError, SignupUnfinishedError } from "@authsvc/flows";
import {
  JobNotRunnable,
  JobTakenOver,
  type AuthJobs,
  type LoginSuccess,
  type OpenedJob,
  type SignupSuccess,
} from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";
import type { AuthJobPayload, JobEventFields } from "@authsvc/queue";
import type { JobEventType } from "@authsvc/contracts";
import { captureFailurePage, type FailureScreenshot } from "../flows/failure-screenshot";
import type { FlowRunner, RunHooks } from "../flows/run-auth-flow";
import type { WorkerMetrics } from "../worker-metrics";

/** The error a run taken over by another worker ends with; its queue failure must not end the job's record. */
export const TAKEN_OVER = "taken_over";

export interface AuthProcessorDeps {
  jobs: AuthJobs;
  runFlow: FlowRunner;
  log: Logger;
  metrics: WorkerMetrics;
}

/**
 * Once the password was submitted, no failure is retried, whatever it was: submitting again could count
 * as another failed login on the target site and lock the account. Before that, transient faults are. A
 * browser fault after the submit (Chromium died) is `login_unconfirmed`: the site has the password and we
 * did not see its answer.
 */
function asFlowError(err: unknown, submitted: boolean): LoginFlowError {
  if (!(err instanceof LoginFlowError)) {
    const fault = `browser fault: ${err instanceof Error ? err.message.split("\n")[0]! : String(err)}`;
    return submitted
      ? new LoginFlowError(
          "login_unconfirmed",
          `${fault}, after the password was submitted; the outcome is unknown and it is not submitted again`,
          { retryable: false },
        )
      : new LoginFlowError("internal_error", fault);
  }
  return submitted && err.retryable ? new LoginFlowError(err.code, err.message, { retryable: false }) : err;
}

/**
 * The auth queue's processor, a thin adapter: open the job (AuthJobs), run its flow, hand the outcome to
 * AuthJobs, and tell BullMQ whether to retry. Only the failure's code goes to Redis; its message may quote
 * the target site.
 */
export function createAuthProcessor({ jobs, runFlow, log, metrics }: AuthProcessorDeps) {
  return async function processAuthJob(job: Job<AuthJobPayload>): Promise<{ sessionId: string }> {
    const { authJobId, orgId } = job.data;
    // A fault before the browser runs (database away) is thrown as is: BullMQ retries it, and the
    // processors' `failed` handler abandons the job if no attempt is left.
    const opened = await jobs.open(orgId, authJobId, job.attemptsMade + 1).catch((err: unknown) => {
      throw err instanceof JobNotRunnable ? new UnrecoverableError(err.message) : err;
    });
    const jobLog = log.child({ jobId: authJobId, orgId, attempt: opened.attempt });
    let submitted = false;
    let takenOver = false;
    let lastPage: FailureScreenshot | null = null;
    // What the job's clients follow, in order, each step once in a row (a form filled in two rounds is found once).
    let told: string | null = null;
    let telling = Promise.resolve();
    const tell = (type: JobEventType, fields?: JobEventFields) => {
      if (told === type) return;
      told = type;
      telling = telling.then(() => jobs.tell(opened, type, fields));
    };
    const hooks: RunHooks = {
      onStep: (step) => jobLog.debug({ step }, opened.kind === "signup" ? "signup step" : "login step"),
      onMilestone: (milestone) => tell(milestone),
      onProgress: tell,
      // Requests waiting for this job answer 202 with its question once it is told.
      onNeedsInput: () => {
        telling = telling.then(() => job.updateProgress({ needsInput: true })).catch(() => undefined);
      },
      beforeSubmit: async () => {
        submitted = true;
        await telling;
        await jobs.markSubmitted(opened).catch((err: unknown) => {
          takenOver = err instanceof JobTakenOver;
          throw err;
        });
        told = "submitted";
      },
      // Taken on every failed run (the verdict is not known yet); jobs.fail stores the final one's.
      onFailurePage: async (page) => {
        lastPage = await captureFailurePage(page, { identifier: opened.credential.username, log: jobLog });
      },
    };
    const timer = metrics.loginDuration.startTimer();
    // Its end (succeeded, failed, retrying) is told by jobs.succeed/fail, after what the run told.
    const settle = () => telling;
    let outcome: LoginSuccess | SignupSuccess;
    try {
      outcome = await runFlow(opened, hooks);
      timer({ outcome: "succeeded" });
    } catch (err) {
      if (takenOver) {
        // Another worker runs this job now (this one was stalled past its claim): nothing was submitted, and the record is not ours to end.
        jobLog.warn("taken over by another worker while stalled; stopped before submitting");
        throw new UnrecoverableError(TAKEN_OVER);
      }
      await settle();
      const failure = asFlowError(err, submitted);
      timer({ outcome: failure.code });
      const unfinished = err instanceof SignupUnfinishedError ? err.account : undefined;
      const decision = await jobs.fail(
        opened,
        {
          code: failure.code,
          message: failure.message,
          details: failure.details,
          retryable: failure.retryable,
          submitted,
          unfinished,
          lastPage: lastPage ?? undefined,
        },
        job.opts.attempts ?? 1,
      );
      // Another worker runs this job now: its record and its queue entry are that run's.
      if (decision === "stale") throw new UnrecoverableError(TAKEN_OVER);
      // Unrecoverable even if the bookkeeping failed: never submit the password again.
      throw decision === "retry" ? new Error(failure.code) : new UnrecoverableError(failure.code);
    }
    await settle();
    return succeed(jobs, opened, outcome, jobLog);
  };
}

/** It worked; what follows is bookkeeping, which must not log in (or sign up) again if it fails. */
async function succeed(
  jobs: AuthJobs,
  job: OpenedJob,
  outcome: LoginSuccess | SignupSuccess,
  log: Logger,
): Promise<{ sessionId: string }> {
  try {
    return await jobs.succeed(job, outcome);
  } catch (err) {
    if (err instanceof JobTakenOver) {
      log.warn("signed in, but a newer run holds this job (this one stalled past its lock): its session is not stored");
      throw new UnrecoverableError(TAKEN_OVER);
    }
    log.error({ err: String(err) }, "could not store the session of a successful login");
    throw new UnrecoverableError("internal_error");
  }
}
