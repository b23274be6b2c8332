import { fingerprint } from "@authsvc/crypto";

/** What decides which account a session belongs to: the fields of a login, as the gateway resolved them. */
export interface SessionIdentity {
  collectionId?: string;
  siteOrigin: string;
  method: string;
  identifier: string;
  password?: string;
  additionalFields?: Record<string, string | number | boolean>;
  totpSecret?: string;
  email?: string;
  phone?: string;
}

function canonicalJson(value: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(value).sort().map((k) => [k, value[k]]));
}

/**
 * The cache and single-flight key of a login: org + collection + site origin + HMAC of everything that
 * decides which account the session belongs to. A different password gives a different key. The worker
 * computes it too, for a signup's session, so the next login or refresh of that account finds it.
 */
/** A signup's single-flight key: identical concurrent signups (same org, site and account) share one job. */
export function signupFingerprint(key: Buffer, orgId: string, signup: { collectionId?: string; siteOrigin: string; method: string; fields: Record<string, unknown> }): string {
  return fingerprint(key, ["signup/v1", orgId, signup.collectionId ?? "", signup.siteOrigin, signup.method, canonicalJson(signup.fields)]);
}

export function loginFingerprint(key: Buffer, orgId: string, login: SessionIdentity): string {
  return fingerprint(key, [
    "login/v1",
    orgId,
    login.collectionId ?? "",
    login.siteOrigin,
    login.method,
    login.identifier,
    login.password ?? "",
    canonicalJson(login.additionalFields ?? {}),
    // A session that took a second factor is not served to a caller who cannot give it.
    login.totpSecret ?? "",
    // …nor one whose code went to another inbox.
    login.email ?? "",
    login.phone ?? "",
  ]);
}
