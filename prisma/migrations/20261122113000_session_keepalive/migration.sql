-- When the keep-alive job handled a session: queued its refresh before expiry, or reported it expired.
ALTER TABLE "sessions" ADD COLUMN "keepalive_at" TIMESTAMP(3);
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");
