import { allowHandoffSchema, collectionIdSchema, regionSchema, targetUrlSchema } from "./request-parts";

/** Stored credentials, as the API shows them: metadata only, never a secret. */
export interface CredentialResource {
  credentialId: string;
  /** Origin of the site the credential logs in to. */
  site: string;
  /** Origin + path of the page it logs in on: with the username and collection, what names the credential. */
  loginPage: string;
  loginUrl: string;
  username: string;
  collectionId: string | null;
  createdAt: string;
  lastLoginAt: string | null;
  /**
   * `active`: the last login worked; `failing`: the last one failed (`lastError`); `pending`: none worked
   * yet; `pending_verification`: a signup created the account and its email is not confirmed yet.
   */
  status: "active" | "failing" | "pending" | "pending_verification";
  lastError: string | null;
  /**
   * Since when the service keeps the site's memory of this credential's browser (the long-lived cookies it
   * set to trust the device); null when none is kept. `DELETE /v1/credentials/{id}/device` forgets it.
   */
  deviceRememberedAt: string | null;
  /** The worker region its runs go to (a request's `region` moves it); null: any worker. */
  region: string | null;
}

/** POST /v1/refresh: a credential named by id, or by the site, username and collection a login used. */
/** A stored credential's status, from its last successful login and its last error. */
export function credentialStatus(row: { lastLoginAt: Date | null; lastErrorCode: string | null }): CredentialResource["status"] {
  if (!row.lastLoginAt) return row.lastErrorCode === "verification_pending" ? "pending_verification" : "pending";
  return row.lastErrorCode ? "failing" : "active";
}

export interface RefreshRequest {
  credentialId?: string;
  domain?: string;
  username?: string;
  collectionId?: string;
  allowHandoff?: boolean;
  /** Run on a worker of this region; the credential keeps it (its own region otherwise). */
  region?: string;
}

export const refreshRequestSchema = {
  $id: "RefreshRequest",
  type: "object",
  additionalProperties: false,
  properties: {
    credentialId: { type: "string", pattern: "^cred_[0-9A-Za-z]{22}$" },
    domain: targetUrlSchema,
    username: { type: "string", minLength: 1, maxLength: 320 },
    collectionId: collectionIdSchema,
    allowHandoff: allowHandoffSchema,
    region: regionSchema,
  },
} as const;

/**
 * POST /v1/credentials/{id}/verify: confirms the email of an account a signup left pending. A `link` or
 * `code` the caller read in their own mailbox, or neither: the confirmation link that reached the
 * organization's inbox (its mailbox, or the forwarding inbox) since the signup.
 */
export interface VerifyRequest {
  link?: string;
  code?: string;
  allowHandoff?: boolean;
}

export const verifyRequestSchema = {
  $id: "VerifyRequest",
  type: "object",
  additionalProperties: false,
  properties: {
    link: targetUrlSchema,
    code: { type: "string", minLength: 3, maxLength: 64, pattern: "^[0-9A-Za-z-]+$" },
    allowHandoff: allowHandoffSchema,
  },
} as const;
