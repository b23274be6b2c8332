-- A credential belongs to a login page (origin + path, no query or fragment), not to the whole origin:
-- two applications on one origin with the same username are two credentials.
ALTER TABLE "credentials" ADD COLUMN "login_page" TEXT;

-- Existing rows: the page of their login URL, which is the URL the last login was asked for.
UPDATE "credentials" SET "login_page" = regexp_replace("login_url", '[?#].*$', '');

ALTER TABLE "credentials" ALTER COLUMN "login_page" SET NOT NULL;

DROP INDEX "credentials_org_id_collection_id_site_origin_username_key";
CREATE UNIQUE INDEX "credentials_org_id_collection_id_login_page_username_key" ON "credentials"("org_id", "collection_id", "login_page", "username") NULLS NOT DISTINCT;
-- Refresh by domain and username finds a credential by its site as well.
CREATE INDEX "credentials_org_id_site_origin_username_idx" ON "credentials"("org_id", "site_origin", "username");

-- Which job cached a session under a key (serving sessions cached before this change, keep-alive).
CREATE INDEX "auth_jobs_org_id_fingerprint_idx" ON "auth_jobs"("org_id", "fingerprint");
