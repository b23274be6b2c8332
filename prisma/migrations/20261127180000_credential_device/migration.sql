-- The site's memory of this credential's device: the long-lived cookies it set to trust the browser (after a
-- second factor, or "remember me"), encrypted, loaded before the credential's next login or refresh.
ALTER TABLE "credentials" ADD COLUMN "device" TEXT;
ALTER TABLE "credentials" ADD COLUMN "device_saved_at" TIMESTAMP(3);

-- The browser a credential's runs show its site (user agent's system, languages, time zone, screen), chosen
-- once: every later run is the same browser. Not a secret.
ALTER TABLE "credentials" ADD COLUMN "browser_profile" JSONB;
