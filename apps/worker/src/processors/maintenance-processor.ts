import type { Job } from "bullmq";
import type { Config } from "@authsvc/config";
import type { Database } from "@authsvc/db";
import type { AuthJobs } from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";
import { KEEPALIVE_JOB, SWEEP_JOB } from "@authsvc/queue";
import { keepAlive, type KeepAliveDeps } from "../maintenance/keep-alive";
import { sweepRetention } from "../maintenance/sweep-retention";

/** The maintenance queue's processor: keep-alive runs, open-jobs sweeps and retention sweeps (scheduled once for all workers). */
export function createMaintenanceProcessor(deps: { config: Config; db: Database; jobs: AuthJobs; log: Logger; checks?: KeepAliveDeps["checks"] }) {
  return async function processMaintenance(job: Job) {
    if (job.name === KEEPALIVE_JOB) return keepAlive(deps);
    if (job.name === SWEEP_JOB) return deps.jobs.sweepOpen();
    const deleted = await sweepRetention(deps.db, deps.config.retention);
    deps.log.info({ deleted }, "retention sweep");
    return deleted;
  };
}
