-- When the password of a job was submitted: a job run again after that (its worker died) must not submit again.
ALTER TABLE "auth_jobs" ADD COLUMN "submitted_at" TIMESTAMP(3);
