-- The sweep of open jobs (apps/worker maintenance) reads jobs still queued or running, oldest first.
CREATE INDEX "auth_jobs_status_created_at_idx" ON "auth_jobs"("status", "created_at");
