-- Regions: a job runs only on a worker of its region (null: any worker); a credential keeps the region its
-- runs asked for, for its later refreshes and keep-alive, until a request names another.
ALTER TABLE "auth_jobs" ADD COLUMN "region" TEXT;
ALTER TABLE "credentials" ADD COLUMN "region" TEXT;
