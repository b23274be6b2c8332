-- The dashboard's charts read these instead of auth_jobs (a busy deployment finishes a million jobs a day).
-- Bucket arrays are durations of succeeded jobs in fixed buckets (DURATION_BUCKETS_MS, packages/db
-- duration-buckets.ts), empty for failures. Filled by the worker's maintenance queue (packages/db JobStats).

-- Finished jobs per organization, hour, site (the login page's host) and outcome ('succeeded' or the error code).
CREATE TABLE "job_stats_site_hours" (
    "org_id" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "site" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "jobs" INTEGER NOT NULL,
    "duration_buckets" INTEGER[] NOT NULL,
    CONSTRAINT "job_stats_site_hours_pkey" PRIMARY KEY ("org_id", "hour", "site", "outcome")
);
-- Rows are written hour after hour: a BRIN index finds an hour range in a few pages.
CREATE INDEX "job_stats_site_hours_hour_idx" ON "job_stats_site_hours" USING BRIN ("hour");
ALTER TABLE "job_stats_site_hours" ADD CONSTRAINT "job_stats_site_hours_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The same without the site: the charts per hour and per outcome (a few rows per organization and hour).
CREATE TABLE "job_stats_hours" (
    "org_id" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "jobs" INTEGER NOT NULL,
    "duration_buckets" INTEGER[] NOT NULL,
    CONSTRAINT "job_stats_hours_pkey" PRIMARY KEY ("org_id", "hour", "outcome")
);
CREATE INDEX "job_stats_hours_hour_idx" ON "job_stats_hours"("hour");
ALTER TABLE "job_stats_hours" ADD CONSTRAINT "job_stats_hours_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Per scope (an organization's id, or '' for all of them) the busiest sites of the last week and those whose
-- success rate fell, over the last day, the last week and the 7 days before the last day; recomputed as a whole
-- every few minutes, so a page reads a few rows whatever the number of sites.
CREATE TABLE "job_stats_sites" (
    "scope" TEXT NOT NULL,
    "site" TEXT NOT NULL,
    "day_jobs" INTEGER NOT NULL,
    "day_succeeded" INTEGER NOT NULL,
    "day_buckets" INTEGER[] NOT NULL,
    "week_jobs" INTEGER NOT NULL,
    "week_succeeded" INTEGER NOT NULL,
    "week_buckets" INTEGER[] NOT NULL,
    "baseline_jobs" INTEGER NOT NULL,
    "baseline_succeeded" INTEGER NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "job_stats_sites_pkey" PRIMARY KEY ("scope", "site")
);

-- How far the hourly counts have read finished jobs (one row).
CREATE TABLE "job_stats_progress" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "rolled_up_to" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "job_stats_progress_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "job_stats_progress_one_row" CHECK ("id" = 1)
);

-- The hourly counts read the jobs that finished in an hour. IF NOT EXISTS: on a large auth_jobs, build it
-- first without blocking writes (CREATE INDEX CONCURRENTLY "auth_jobs_finished_at_idx" ON "auth_jobs"("finished_at"))
-- and this step does nothing.
CREATE INDEX IF NOT EXISTS "auth_jobs_finished_at_idx" ON "auth_jobs"("finished_at");
