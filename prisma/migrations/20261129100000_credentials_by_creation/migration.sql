-- GET /v1/credentials pages newest first by creation time (ids are random, not in creation order).
CREATE INDEX "credentials_org_id_created_at_id_idx" ON "credentials"("org_id", "created_at" DESC, "id" DESC);
