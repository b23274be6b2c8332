-- The passkeys a credential holds for its site: the key material sealed (encrypted under the row's own
-- associated data), the relying party and dates in the clear for listings.
CREATE TABLE "credential_passkeys" (
    "id" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "rp_id" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "job_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "credential_passkeys_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "credential_passkeys_credential_id_idx" ON "credential_passkeys"("credential_id");
CREATE INDEX "credential_passkeys_job_id_idx" ON "credential_passkeys"("job_id");
ALTER TABLE "credential_passkeys" ADD CONSTRAINT "credential_passkeys_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;
