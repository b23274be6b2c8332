import type { Job } from "bullmq";
import type { Config } from "@authsvc/config";
import type { Database } from "@authsvc/db";
import type { AuthJobs } from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";
import { JOB_STATS_JOB, KEEPALIVE_JOB, SITE_STATS_JOB, SWEEP_JOB } from "@authsvc/queue";
import { keepAlive, type KeepAliveDeps } from "../maintenance/keep-alive";
import { refreshSiteStats, rollUpJobStats } from "../maintenance/roll-up-job-stats";
import { sweepRetention } from "../maintenance/sweep-retention";

/** The maintenance queue's processor: keep-alive runs, open-jobs sweeps, job stats and retention sweeps (scheduled once for all workers). */
export function createMaintenanceProcessor(deps: {
  config: Config;
  db: Database;
  jobs: AuthJobs;
  log: Logger;
  checks?: KeepAliveDeps["checks"];
}) {
  return async function processMaintenance(job: Job) {
    if (job.name === KEEPALIVE_JOB) return keepAlive(deps);
    if (job.name === SWEEP_JOB) return deps.jobs.sweepOpen();
    if (job.name === JOB_STATS_JOB) return rollUpJobStats(deps.db);
    if (job.name === SITE_STATS_JOB) return refreshSiteStats(deps.db);
    const deleted = await sweepRetention(deps.db, deps.config.retention);
    deps.log.info({ deleted }, "retention sweep");
    return deleted;
  };
}
