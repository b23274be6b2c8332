-- The last page of a job that failed for good, redacted (password and code fields blanked) and encrypted
-- (`image`, bound to org + job id). It lives as long as its job record: the retention sweep's delete cascades.
CREATE TABLE "job_screenshots" (
    "job_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "image" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "job_screenshots_pkey" PRIMARY KEY ("job_id")
);
CREATE INDEX "job_screenshots_org_id_idx" ON "job_screenshots"("org_id");
ALTER TABLE "job_screenshots" ADD CONSTRAINT "job_screenshots_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "auth_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "job_screenshots" ADD CONSTRAINT "job_screenshots_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A failed job keeps its encrypted input so platform staff can run it again; when and by whom they did.
ALTER TABLE "auth_jobs" ADD COLUMN "replayed_at" TIMESTAMP(3);
ALTER TABLE "auth_jobs" ADD COLUMN "replayed_by" TEXT;
