import type { Request, Response } from "express";
import { ApiError } from "../http/api-error";
import type { GatewayMetrics } from "../http/metrics";
import type { AuthAnswer, AuthCall, IdempotentCall } from "./auth-service";
import { preferredWaitMs } from "./prefer-wait";

/** The request as a job-running call sees it: its id, how long it waits (`Prefer`), its idempotency. */
export function authCall(req: Request, res: Response, maxWaitMs: number): AuthCall {
  return {
    requestId: res.locals.requestId as string,
    waitMs: preferredWaitMs(req.get("prefer"), maxWaitMs),
    idempotent: res.locals.idempotent as IdempotentCall | undefined,
  };
}

/**
 * Runs a request that waits for a browser job (login, signup, refresh) and counts its answer: `label`
 * (by default where the session came from), `pending`, or the error code.
 */
export async function countedAnswer(
  metrics: GatewayMetrics,
  run: () => Promise<AuthAnswer>,
  label?: string,
): Promise<AuthAnswer> {
  let answer: AuthAnswer;
  try {
    answer = await run();
  } catch (err) {
    metrics.auth.inc({ answer: err instanceof ApiError ? err.code : "internal_error" });
    throw err;
  }
  metrics.auth.inc({ answer: answer.kind === "pending" ? "pending" : (label ?? answer.source) });
  return answer;
}

/** Answers 202 with the job for one still running (null then); otherwise names the job and returns the session. */
export function pendingOrSession(
  req: Request,
  res: Response,
  answer: AuthAnswer,
): Extract<AuthAnswer, { kind: "session" }> | null {
  if (answer.kind === "pending") {
    // RFC 5989's "monitor": where the job's progress streams (Server-Sent Events), as the body's eventsUrl.
    res
      .status(202)
      .location(`${req.baseUrl}/jobs/${answer.job.jobId}`)
      .set("X-Job-Id", answer.job.jobId)
      .set("Link", `<${answer.job.eventsUrl}>; rel="monitor"`)
      .json(answer.job);
    return null;
  }
  if (answer.jobId) res.set("X-Job-Id", answer.jobId);
  return answer;
}
