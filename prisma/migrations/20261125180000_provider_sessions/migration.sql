-- OAuth providers' signed-in state, per organization, collection ("" for none) and provider account: the
-- next OAuth login with the account reuses it instead of typing the password again. `state` is encrypted.
CREATE TABLE "provider_sessions" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "provider_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "provider_sessions_org_id_scope_provider_account_key" ON "provider_sessions"("org_id", "scope", "provider", "account");
CREATE INDEX "provider_sessions_expires_at_idx" ON "provider_sessions"("expires_at");
ALTER TABLE "provider_sessions" ADD CONSTRAINT "provider_sessions_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
