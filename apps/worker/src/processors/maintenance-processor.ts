import type { Job } from "bullmq";
import type { Config } from "@authsvc/config";
import type { Database } from "@authsvc/db";
import type { AuthJobs } from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";
import { maintenanceTaskOf, type MaintenanceTask } from "@authsvc/queue";
import { keepAlive, type KeepAliveDeps } from "../maintenance/keep-alive";
import { refreshSiteStats, rollUpJobStats } from "../maintenance/roll-up-job-stats";
import { sweepRetention } from "../maintenance/sweep-retention";

/**
 * The maintenance queue's processor: runs the catalog's task of the job's name (MAINTENANCE_TASKS, which the
 * scheduler reads too). A name outside the catalog fails the job with UnknownMaintenanceTask.
 */
export function createMaintenanceProcessor(deps: {
  config: Config;
  db: Database;
  jobs: AuthJobs;
  log: Logger;
  checks?: KeepAliveDeps["checks"];
}) {
  // Keyed by the catalog: a task added to it without a way to run it here does not compile.
  const run: Record<MaintenanceTask, () => Promise<unknown>> = {
    keepalive: () => keepAlive(deps),
    "sweep-open-jobs": () => deps.jobs.sweepOpen(),
    "job-stats": () => rollUpJobStats(deps.db),
    "job-stats-sites": () => refreshSiteStats(deps.db),
    retention: async () => {
      const deleted = await sweepRetention(deps.db, deps.config.retention);
      deps.log.info({ deleted }, "retention sweep");
      return deleted;
    },
  };
  return async function processMaintenance(job: Job) {
    return run[maintenanceTaskOf(job.name)]();
  };
}
