import { UnrecoverableError, type Job } from "bullmq";
import type { BrowserHost, TargetGuard } from "@authsvc/browser";
import type { Config } from "@authsvc/config";
import type { SessionResponse } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import { LoginFlowError, passwordLogin } from "@authsvc/flows";
import type { Logger } from "@authsvc/logging";
import type { AuthJobPayload, SessionCache, SingleFlight } from "@authsvc/queue";
import { sessionExpiry } from "./session-expiry";

export interface LoginJobDeps {
  config: Config;
  db: Database;
  cache: SessionCache;
  flight: SingleFlight;
  browser: BrowserHost;
  guard: TargetGuard;
  log: Logger;
}

// Past the flow's own deadline, how long we wait before closing the browser context under it.
const HARD_STOP_GRACE_MS = 5000;

/**
 * A fault we did not foresee is worth another attempt only if the password was not submitted yet:
 * submitting again could count as another failed login on the target site and lock the account.
 */
function asFlowError(err: unknown, submitted: boolean): LoginFlowError {
  if (err instanceof LoginFlowError) return err;
  const message = err instanceof Error ? err.message.split("\n")[0]! : String(err);
  return new LoginFlowError("internal_error", `browser fault: ${message}`, { retryable: !submitted });
}

export function createLoginProcessor(deps: LoginJobDeps) {
  const { config, db, cache, flight, browser, guard, log } = deps;

  async function runFlow(loginUrl: string, identifier: string, password: string, additionalFields: Record<string, string | number | boolean> | undefined, onStep: (s: string) => void): Promise<SessionResponse> {
    return browser.withPage(async (page) => {
      let timer: NodeJS.Timeout | undefined;
      const hardStop = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new LoginFlowError("timeout", "the login did not finish in time"));
          void page.browserContext().close().catch(() => undefined);
        }, config.worker.jobTimeoutMs + HARD_STOP_GRACE_MS);
      });
      try {
        return await Promise.race([
          passwordLogin(page, { loginUrl, identifier, password, additionalFields }, { guard, timeoutMs: config.worker.jobTimeoutMs, onStep }),
          hardStop,
        ]);
      } finally {
        clearTimeout(timer);
      }
    });
  }

  return async function processLoginJob(job: Job<AuthJobPayload>): Promise<{ sessionId: string }> {
    const { authJobId, orgId } = job.data;
    const attempt = job.attemptsMade + 1;
    const jobLog = log.child({ jobId: authJobId, orgId, attempt });
    const record = await db.authJobs.claim(orgId, authJobId, attempt);
    if (!record?.input) throw new UnrecoverableError("job record or its input is missing");
    const credential = await db.credentials.find(orgId, record.credentialId);
    if (!credential || !record.input.password) throw new UnrecoverableError("credential is missing");

    let submitted = false;
    const started = Date.now();
    try {
      const state = await runFlow(record.loginUrl, credential.username, record.input.password, record.input.additionalFields, (step) => {
        if (step === "submit") submitted = true;
        jobLog.debug({ step }, "login step");
      });
      const expiresAt = sessionExpiry(state, config.session.ttlSeconds);
      const sessionId = await db.sessions.create({
        orgId,
        credentialId: credential.id,
        origin: credential.siteOrigin,
        state,
        expiresAt,
      });
      await cache.set(orgId, record.fingerprint, state, (expiresAt.getTime() - Date.now()) / 1000);
      await db.credentials.recordSuccess(orgId, credential.id, record.input, record.loginUrl);
      await db.authJobs.succeed(authJobId, sessionId);
      await flight.release(orgId, record.fingerprint, authJobId);
      jobLog.info({ durationMs: Date.now() - started, cookies: state.cookies.length }, "login succeeded");
      return { sessionId };
    } catch (err) {
      const failure = asFlowError(err, submitted);
      const final = !failure.retryable || attempt >= (job.opts.attempts ?? 1);
      jobLog.warn({ code: failure.code, reason: failure.message, final, durationMs: Date.now() - started }, "login failed");
      if (!final) {
        await db.authJobs.requeue(authJobId, failure.code, failure.message);
        throw new Error(failure.code);
      }
      await db.authJobs.fail(authJobId, failure.code, failure.message);
      await db.credentials.recordFailure(orgId, credential.id, failure.code);
      await flight.release(orgId, record.fingerprint, authJobId);
      // Only the code goes to Redis: the message may quote the target site.
      throw new UnrecoverableError(failure.code);
    }
  };
}
