import { ReplayRefused, type AuthJobs } from "@authsvc/jobs";
import type { ReplayJob } from "./replay-port";

/** The admin area's replay: packages/jobs' replay, its refusals turned into outcomes a page can show. */
export function replayThrough(jobs: AuthJobs): ReplayJob {
  return async (jobId, options) => {
    try {
      await jobs.replay(jobId, options);
      return { replayed: true };
    } catch (err) {
      if (err instanceof ReplayRefused) return { replayed: false, code: err.code, message: err.message };
      throw err;
    }
  };
}
