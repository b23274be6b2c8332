// What a signup leaves behind: the credential of the account it made, finished or not.
import type { CreatedAccount, LoginSecret, UnfinishedAccount } from "@authsvc/contracts";
import { oauthMethodFor } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import type { JobDeps } from "./job-deps";
import type { OpenedJob } from "./open-job";
import type { SignupSuccess } from "./succeed-job";
import { loginFingerprint, storedLoginIdentity } from "./session-keys";

/**
 * Stores what a signup created: the credential under the identity the site settled on, with the secret a
 * password login needs (the generated password too, encrypted), and the job's account. Returns the key a
 * login or refresh of that account computes, under which its session is cached, and the credential's id.
 */
export async function settleSignup(
  db: Database,
  config: JobDeps["config"],
  job: OpenedJob,
  account: SignupSuccess,
): Promise<{ cacheKey: string; credentialId: string }> {
  const secret = signedUpSecret(job, account);
  const settled = await db.signupCredentials.settleSignup(job.orgId, job.credential.id, {
    username: account.identifier,
    loginUrl: account.loginUrl,
    secret,
  });
  // The key a login of this account computes (storedLoginIdentity is what a refresh computes too).
  const cacheKey = loginFingerprint(
    config.crypto.fingerprintKey,
    job.orgId,
    storedLoginIdentity(
      {
        loginPage: settled.loginPage,
        username: account.identifier,
        collectionExternalId: settled.collectionExternalId,
      },
      secret,
    ),
  );
  return { cacheKey, credentialId: settled.id };
}

/**
 * Stores an unfinished signup's account, with its password, under the identity the site knows it by
 * (status `pending_verification` when it waits for its email to be confirmed); returns the credential's
 * id, or null when a credential of that account already works and was left alone.
 */
export async function keepUnfinishedSignup(
  db: Database,
  job: OpenedJob,
  account: UnfinishedAccount,
  code: string,
): Promise<string | null> {
  const secret: LoginSecret = {
    method: "password",
    password: account.password,
    email: signsInByEmail(account),
    inbox: inboxOf(job),
    awaitsPassword: account.awaitsPassword || undefined,
  };
  const settled = await db.signupCredentials.settleSignup(
    job.orgId,
    job.credential.id,
    { username: account.identifier, loginUrl: account.loginUrl, secret },
    { failure: code },
  );
  const row = await db.credentials.find(job.orgId, settled.id);
  return row && !row.lastLoginAt ? settled.id : null;
}

/**
 * What the new account logs in again with: its site password, or, signed up through a provider, the
 * provider account (its password and TOTP secret) and the provider.
 */
function signedUpSecret(job: OpenedJob, account: SignupSuccess): LoginSecret {
  const { input } = job;
  if (input.kind === "signup" && input.method === "oauth" && input.provider) {
    return {
      method: oauthMethodFor(input.provider),
      provider: input.provider,
      password: account.password,
      email: account.email ?? undefined,
      totpSecret: input.totpSecret,
      inbox: inboxOf(job),
    };
  }
  return {
    method: "password",
    password: account.password,
    email: signsInByEmail(account),
    inbox: inboxOf(job),
  };
}

/** The account's email when it signs in with it (its identifier), kept with its secret. */
function signsInByEmail(account: CreatedAccount): string | undefined {
  return account.identifier === account.email ? account.email : undefined;
}

/** The inbox the job read, kept so the account's next login reads the same one. */
function inboxOf(job: OpenedJob): LoginSecret["inbox"] {
  return job.input.inbox;
}
