import { fingerprint } from "@authsvc/crypto";
import type { LoginCommand } from "./parse-login-request";

function canonicalJson(value: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(value).sort().map((k) => [k, value[k]]));
}

/**
 * The cache and single-flight key of a login: org + collection + site origin + HMAC of everything that
 * decides which account the session belongs to. A different password gives a different key.
 */
export function loginFingerprint(key: Buffer, orgId: string, cmd: LoginCommand): string {
  return fingerprint(key, [
    "login/v1",
    orgId,
    cmd.collectionId ?? "",
    cmd.siteOrigin,
    cmd.method,
    cmd.identifier,
    cmd.password ?? "",
    canonicalJson(cmd.additionalFields ?? {}),
    // A session that took a second factor is not served to a caller who cannot give it.
    cmd.totpSecret ?? "",
    // …nor one whose code went to another inbox.
    cmd.email ?? "",
    cmd.phone ?? "",
  ]);
}
