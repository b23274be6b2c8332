-- What a signup job's account is known by on the site (email, the username it accepted): no secret.
ALTER TABLE "auth_jobs" ADD COLUMN "account" JSONB;
