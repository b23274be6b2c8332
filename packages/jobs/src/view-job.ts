import {
  type FieldError,
  type InputRequest,
  storedErrorCode,
  type JobError,
  passkeyMethod,
  jobEventsPath,
  type JobResource,
  type SignupAccount,
  type SignupResponse,
} from "@authsvc/contracts";
import type { PendingInput } from "@authsvc/db";
import type { JobDeps } from "./job-deps";
import { handoffUrl } from "./handoff-token";
import { sessionExpiresAt } from "./session-lifetime";

/** A job of this org as the API shows it, with its session once it succeeded; null when there is none. */
export async function viewJob(
  deps: Pick<JobDeps, "db" | "config">,
  orgId: string,
  jobId: string,
): Promise<JobResource | null> {
  const { db } = deps;
  const row = await db.authJobs.find(orgId, jobId);
  if (!row) return null;
  const resource: JobResource = {
    jobId: row.id,
    status: row.status as JobResource["status"],
    eventsUrl: jobEventsPath(row.id),
  };
  // Running, and waiting for a person that has not answered yet (an answer given: it runs on).
  if (row.status === "running" && row.pendingInput && !(await db.authJobs.answered(row.id))) {
    resource.status = "needs_input";
    resource.input = inputRequestOf(
      row.pendingInput as unknown as PendingInput,
      handoffUrl(deps.config.dashboard.url, deps.config.crypto.fingerprintKey, row.id, row.attempts),
    );
  }
  if (row.status === "succeeded" && row.sessionId) {
    const found = await db.sessions.findState(orgId, row.sessionId);
    // A signup's result names the credential it stored and the account it created (spec §2.2).
    if (found && row.kind === "signup") {
      const expiresAt = sessionExpiresAt(found.state);
      // The passkey a `createPasskey` signup added to the account.
      const passkey = await db.passkeys.ofJob(orgId, row.id);
      resource.result = {
        ...found.state,
        credentialId: row.credentialId,
        ...(expiresAt ? { expiresAt } : {}),
        account: row.account as unknown as SignupAccount,
        ...(passkey ? { passkey: passkeyMethod(passkey) } : {}),
      } as SignupResponse;
    } else if (found) resource.result = found.state;
  }
  if (row.status === "failed") {
    const error: JobError = { code: storedErrorCode(row.errorCode), message: row.errorMessage ?? "" };
    resource.error = error;
    if (Array.isArray(row.errorDetails) && row.errorDetails.length > 0)
      error.details = row.errorDetails as unknown as FieldError[];
    // A signup that sent its form and failed may have created the account: name where its password is.
    if (
      row.kind === "signup" &&
      row.submittedAt &&
      (await db.signupCredentials.keepsUnfinishedAccount(orgId, row.credentialId))
    ) {
      error.credentialId = row.credentialId;
    }
  }
  return resource;
}

/** What the API shows of a job's question (the record's count of tries stays inside), with its hosted page's address. */
export function inputRequestOf(pending: PendingInput, url: string | null): InputRequest {
  const { tries: _tries, ...shown } = pending;
  return url ? { ...shown, handoffUrl: url } : shown;
}
