-- What a failed job's caller can fix, field by field (form_ambiguous: the candidate fields); never a secret.
ALTER TABLE "auth_jobs" ADD COLUMN "error_details" JSONB;
