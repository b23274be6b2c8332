-- The dashboard's own accounts, their organizations (memberships, invitations) and sign-in sessions.
-- Secrets are never stored: passwords as scrypt hashes (salt and parameters in the value), invitation and
-- session tokens as sha256 hashes of what the browser holds.
CREATE TABLE "dashboard_users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "is_platform_admin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "dashboard_users_pkey" PRIMARY KEY ("id"),
    -- Lower-cased by the application; the check keeps a second spelling of one address out.
    CONSTRAINT "dashboard_users_email_lower" CHECK ("email" = lower("email"))
);
CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users"("email");

CREATE TABLE "memberships" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "memberships_role" CHECK ("role" IN ('owner', 'member'))
);
CREATE UNIQUE INDEX "memberships_user_id_org_id_key" ON "memberships"("user_id", "org_id");
CREATE INDEX "memberships_org_id_idx" ON "memberships"("org_id");
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "used_by" TEXT,
    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "invitations_role" CHECK ("role" IN ('owner', 'member'))
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_org_id_idx" ON "invitations"("org_id");
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "dashboard_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_used_by_fkey" FOREIGN KEY ("used_by") REFERENCES "dashboard_users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "dashboard_sessions" (
    "id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "csrf_secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "dashboard_sessions_token_hash_key" ON "dashboard_sessions"("token_hash");
CREATE INDEX "dashboard_sessions_user_id_idx" ON "dashboard_sessions"("user_id");
CREATE INDEX "dashboard_sessions_expires_at_idx" ON "dashboard_sessions"("expires_at");
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
