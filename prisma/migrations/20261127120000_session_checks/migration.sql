-- The session check: when the site was found to have ended a session, and the order checks are due in.
ALTER TABLE "sessions" ADD COLUMN "revoked_at" TIMESTAMP(3);
ALTER TABLE "sessions" ADD COLUMN "seen_alive_at" TIMESTAMP(3);
CREATE INDEX "sessions_last_checked_at_idx" ON "sessions"("last_checked_at");
