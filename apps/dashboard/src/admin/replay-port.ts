/** Why a job was not replayed, as packages/jobs says it (ReplayRefused's code), or that we know no such job. */
export type ReplayRefusal = "not_failed" | "input_gone" | "needs_confirmation" | "busy" | "not_found";

export type ReplayOutcome = { replayed: true } | { replayed: false; code: ReplayRefusal; message: string };

/** Runs a failed job again from its stored encrypted inputs (same job id); the admin area's one way to replay. */
export type ReplayJob = (jobId: string, options: { confirmRefusedPassword: boolean }) => Promise<ReplayOutcome>;

/** What each refusal means to the person who asked for the replay. */
export const REFUSAL_TEXT: Record<ReplayRefusal, string> = {
  not_failed: "it has not failed (it is queued, running or succeeded)",
  input_gone: "its stored inputs are gone (erased when the job ended before replay existed, or the credential was deleted)",
  needs_confirmation: "the site refused its password: a replay could lock the account, so it needs an explicit confirmation",
  busy: "the same login is running right now",
  not_found: "there is no such job",
};
