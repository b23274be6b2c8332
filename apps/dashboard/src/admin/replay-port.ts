import type { ReplayRefusalCode } from "@authsvc/jobs";

export type ReplayOutcome = { replayed: true } | { replayed: false; code: ReplayRefusalCode; message: string };

/** Runs a failed job again from its stored encrypted inputs (same job id); the admin area's one way to replay. */
export type ReplayJob = (
  jobId: string,
  options: { confirmRefusedPassword: boolean; by: string },
) => Promise<ReplayOutcome>;

/** What each refusal means to the person who asked for the replay. */
export const REFUSAL_TEXT: Record<ReplayRefusalCode, string> = {
  not_failed: "it is no longer the failure shown (it is queued, running or succeeded, or was replayed since)",
  input_gone: "its stored inputs are gone (the credential was deleted, or the job ended before inputs were kept)",
  needs_confirmation:
    "the site refused its password or code: a replay could lock the account, so it needs an explicit confirmation",
  busy: "the same login is running right now",
  not_found: "there is no such job",
};
