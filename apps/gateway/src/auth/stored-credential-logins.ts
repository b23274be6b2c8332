import type { LoginSecret, PasskeyEnrolRequest, VerifyRequest } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import type { TargetGuard } from "@authsvc/egress";
import { refreshSecret, storedLoginIdentity } from "@authsvc/jobs";
import { ApiError } from "../http/api-error";
import type { LoginCommand } from "./parse-login-request";
import { checkTarget } from "./target-checks";

/*
 * The logins a stored credential makes (refresh, passkey enrolment, email confirmation): what each checks of
 * the credential and its secret, and the login command it runs. AuthService starts them as its logins.
 */

type CredentialRow = NonNullable<Awaited<ReturnType<Database["credentials"]["findMetadata"]>>>;

/** The org's credential with its stored secret (null: none kept yet); 404 for another org's or none. */
async function storedCredential(
  db: Pick<Database, "credentials">,
  orgId: string,
  credentialId: string,
): Promise<{ row: CredentialRow; secret: LoginSecret | null }> {
  const [row, secret] = await Promise.all([
    db.credentials.findMetadata(orgId, credentialId),
    db.credentials.secret(orgId, credentialId),
  ]);
  if (!row) throw new ApiError("not_found", "No such credential.");
  return { row, secret };
}

/** A login with `secret` as the credential's own: the same identity, on its login URL, never from the cache. */
function storedLogin(row: CredentialRow, secret: LoginSecret): LoginCommand {
  const identity = storedLoginIdentity(
    { loginPage: row.loginPage, username: row.username, collectionExternalId: row.collection?.externalId },
    secret,
  );
  return { ...identity, method: secret.method, loginUrl: row.loginUrl, useCache: false };
}

/**
 * Logs in again with a credential's stored secret (the last one that worked, with its TOTP secret or
 * inbox), as the same login it was: the fresh session replaces the cached one under the same key.
 */
export async function refreshLogin(
  db: Pick<Database, "credentials" | "passkeys">,
  orgId: string,
  credentialId: string,
  allowHandoff: boolean,
  region: string | undefined,
): Promise<LoginCommand> {
  const { row, secret } = await storedCredential(db, orgId, credentialId);
  if (!secret)
    throw new ApiError(
      "no_stored_secret",
      "This credential never logged in successfully; there is no stored secret to refresh with.",
    );
  if (secret.awaitsPassword) {
    // Its site has not told the account's password yet: a login would type none and be refused.
    throw new ApiError(
      "no_stored_secret",
      `The site has not sent this account's password or the link to set it yet; POST /v1/credentials/${credentialId}/verify with that link, or with {} once it reached your inbox.`,
    );
  }
  const use = await refreshSecret(db, orgId, credentialId, secret);
  return { ...storedLogin(row, use), allowHandoff, region };
}

/**
 * Adds a passkey to a credential's account (a job of kind `passkey_enrol`): signs in with its stored
 * secret as a refresh does (its own method, a provider's button too; never a passkey), then adds one on
 * the site's settings page.
 */
export async function enrolPasskeyLogin(
  db: Pick<Database, "credentials">,
  guard: TargetGuard,
  orgId: string,
  credentialId: string,
  given: PasskeyEnrolRequest,
): Promise<LoginCommand> {
  const { row, secret } = await storedCredential(db, orgId, credentialId);
  if (!secret || secret.awaitsPassword)
    throw new ApiError(
      "no_stored_secret",
      "This credential keeps no secret it signed in with; log in with it first (POST /v1/login), then add a passkey.",
    );
  if (given.settingsUrl) {
    if (new URL(given.settingsUrl).origin !== row.siteOrigin)
      throw ApiError.invalid([
        { field: "/settingsUrl", message: `must be a page of the credential's site (${row.siteOrigin})` },
      ]);
    await checkTarget(guard, given.settingsUrl);
  }
  return {
    ...storedLogin(row, secret),
    allowHandoff: given.allowHandoff === true,
    enrol: { settingsUrl: given.settingsUrl },
  };
}

/**
 * Confirms the email of an account a signup left unfinished, then logs in with its stored secret like a
 * refresh: with the caller's link (checked as a target) or code, else with the confirmation link our inbox
 * received for it since the credential was made.
 */
export async function verifyLogin(
  db: Pick<Database, "credentials">,
  guard: TargetGuard,
  orgId: string,
  credentialId: string,
  given: VerifyRequest,
): Promise<LoginCommand> {
  const { row, secret } = await storedCredential(db, orgId, credentialId);
  if (row.lastLoginAt)
    throw new ApiError(
      "conflict",
      "This credential has signed in already, so its email needs no confirmation; POST /v1/refresh signs in again.",
    );
  if (!secret)
    throw new ApiError(
      "conflict",
      "This credential keeps no password of an account a signup created; there is nothing to confirm.",
    );
  if (secret.awaitsPassword && given.code) {
    throw new ApiError(
      "conflict",
      "This account waits for the password the site mails, or its link to set one, not for a code: send that link, or {} once the mail reached your inbox.",
    );
  }
  if (given.link) await checkTarget(guard, given.link);
  const confirmation = given.link
    ? { link: given.link }
    : given.code
      ? { code: given.code }
      : { inboxSince: row.createdAt.toISOString() };
  // `allowHandoff` is how the job runs, not what confirms it.
  return {
    ...storedLogin(row, secret),
    method: "password",
    confirmation,
    awaitsPassword: secret.awaitsPassword,
    allowHandoff: given.allowHandoff === true,
  };
}
