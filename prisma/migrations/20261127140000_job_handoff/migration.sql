-- The hand-off to a person: whether the caller allowed it, what a waiting job asks (never a secret), and
-- the person's answer until the worker takes it (encrypted).
ALTER TABLE "auth_jobs" ADD COLUMN "allow_handoff" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "auth_jobs" ADD COLUMN "pending_input" JSONB;
ALTER TABLE "auth_jobs" ADD COLUMN "input_answer" TEXT;
