import type { LoginSecret } from "@authsvc/contracts";
import { fingerprint } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";

/** What decides which account a session belongs to: the fields of a login, as the gateway resolved them. */
export interface SessionIdentity {
  collectionId?: string;
  /** The login page (`loginPageOf`): two applications on one origin never share a session. */
  loginPage: string;
  method: string;
  identifier: string;
  password?: string;
  additionalFields?: Record<string, string | number | boolean>;
  totpSecret?: string;
  email?: string;
  phone?: string;
  /** An OAuth login's provider (`google`, `github`, an issuer URL or a button label). */
  provider?: string;
}

function canonicalJson(value: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(value)
      .sort()
      .map((k) => [k, value[k]]),
  );
}

/** A signup's single-flight key: identical concurrent signups (same org, site and account) share one job. */
export function signupFingerprint(
  key: Buffer,
  orgId: string,
  signup: { collectionId?: string; siteOrigin: string; method: string; fields: Record<string, unknown> },
): string {
  return fingerprint(key, [
    "signup/v1",
    orgId,
    signup.collectionId ?? "",
    signup.siteOrigin,
    signup.method,
    canonicalJson(signup.fields),
  ]);
}

/**
 * The cache and single-flight key of a login: org + collection + login page + HMAC of everything that
 * decides which account the session belongs to. A different password gives a different key. The worker
 * computes it too, for a signup's session, so the next login or refresh of that account finds it.
 */
export function loginFingerprint(key: Buffer, orgId: string, login: SessionIdentity): string {
  return keyOf(key, orgId, "login/v2", login.loginPage, login);
}

/**
 * The key sessions were cached under before they were keyed by login page (org + site origin). Read only
 * to serve entries cached before that change, and only when the job that cached one logged in on the same
 * login page (see `AuthJobs.cachedSession`); such entries end with their TTL.
 */
export function originFingerprint(key: Buffer, orgId: string, login: SessionIdentity): string {
  return keyOf(key, orgId, "login/v1", new URL(login.loginPage).origin, login);
}

function keyOf(key: Buffer, orgId: string, version: string, site: string, login: SessionIdentity): string {
  return fingerprint(key, [
    version,
    orgId,
    login.collectionId ?? "",
    site,
    login.method,
    login.identifier,
    login.password ?? "",
    canonicalJson(login.additionalFields ?? {}),
    // A session that took a second factor is not served to a caller who cannot give it.
    login.totpSecret ?? "",
    // …nor one whose code went to another inbox.
    login.email ?? "",
    login.phone ?? "",
    // An OAuth login's provider: the same account by another provider is another login. Absent for the
    // other methods, so their keys stay as they were.
    ...(login.provider ? [`provider:${login.provider}`] : []),
  ]);
}

/**
 * The identity of a login with a stored credential's secret (refresh, keep-alive): the same a caller's
 * login with those fields computes, so a refreshed session replaces the one the caller is served.
 */
export function storedLoginIdentity(
  credential: { loginPage: string; username: string; collectionExternalId?: string },
  secret: Pick<LoginSecret, "method" | "password" | "additionalFields" | "totpSecret" | "email" | "phone"> & {
    provider?: string;
  },
): SessionIdentity {
  return {
    collectionId: credential.collectionExternalId,
    loginPage: credential.loginPage,
    method: secret.method,
    identifier: credential.username,
    password: secret.password,
    additionalFields: secret.additionalFields,
    totpSecret: secret.totpSecret,
    email: secret.email,
    phone: secret.phone,
    provider: secret.provider,
  };
}

/**
 * What a refresh of a credential signs in with (the API's, keep-alive's): its passkey when it holds one,
 * typing nothing a site could phish; else its stored secret.
 */
export async function refreshSecret(
  db: Pick<Database, "passkeys">,
  orgId: string,
  credentialId: string,
  stored: LoginSecret,
): Promise<LoginSecret> {
  return (await db.passkeys.list(orgId, credentialId)).length > 0 ? { method: "passkey" } : stored;
}
