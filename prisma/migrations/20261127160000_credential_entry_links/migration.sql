-- Credentials the end user types themselves: a link to a hosted page for one site, valid until expires_at.
-- The page's sign-ins (at most a few) are jobs; the one that worked names the credential it stored.
CREATE TABLE "credential_entry_links" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "collection_external_id" TEXT,
    "login_url" TEXT NOT NULL,
    "site_origin" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "tries" INTEGER NOT NULL DEFAULT 0,
    "job_id" TEXT,
    "credential_id" TEXT,
    "created_credential_at" TIMESTAMP(3),

    CONSTRAINT "credential_entry_links_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "credential_entry_links_org_id_created_at_idx" ON "credential_entry_links"("org_id", "created_at");
CREATE UNIQUE INDEX "credential_entry_links_job_id_key" ON "credential_entry_links"("job_id");

ALTER TABLE "credential_entry_links" ADD CONSTRAINT "credential_entry_links_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "credential_entry_links" ADD CONSTRAINT "credential_entry_links_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "credentials"("id") ON DELETE SET NULL ON UPDATE CASCADE;
