-- An organization's egress proxies: the URL with its password encrypted, its address without it for
-- listing. A credential keeps the proxy it first signed in through (sticky) until moved or the proxy is deleted.
CREATE TABLE "proxies" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "label" TEXT,
    "region" TEXT,
    "address" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "proxies_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "proxies_org_id_label_idx" ON "proxies"("org_id", "label");
ALTER TABLE "proxies" ADD CONSTRAINT "proxies_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "credentials" ADD COLUMN "proxy_id" TEXT;
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_proxy_id_fkey" FOREIGN KEY ("proxy_id") REFERENCES "proxies"("id") ON DELETE SET NULL ON UPDATE CASCADE;
