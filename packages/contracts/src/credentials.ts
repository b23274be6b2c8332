import { Type, type Static } from "@sinclair/typebox";
import type { CredentialMethod, CredentialResource, PasskeyMethod } from "./credential-resource";
import type { LoginMethod } from "./login-request";
import { describedLoosely } from "./schema-refs";
import { allowHandoffSchema, collectionIdSchema, regionSchema, targetUrlSchema } from "./request-parts";

/**
 * A passkey's key material as a WebAuthn authenticator holds it (Chromium's CDP `WebAuthn.Credential`): the
 * credential id and private key (PKCS#8), base64; the relying party; the user handle, base64; the sign
 * counter. A secret: stored sealed with its credential, never in an answer, a payload or a log.
 */
export interface PasskeyKey {
  credentialId: string;
  rpId: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
  isResidentCredential: boolean;
}

/**
 * The ways a credential signs in: its stored secret's (a `totp` one is a password and an authenticator
 * code), then its passkeys, oldest first. None before a login worked.
 */
export function credentialMethods(
  secretMethod: LoginMethod | null,
  passkeys: Array<{ id: string; rpId: string; createdAt: Date; lastUsedAt: Date | null }>,
): CredentialMethod[] {
  const stored: CredentialMethod[] =
    secretMethod === null || secretMethod === "passkey"
      ? []
      : secretMethod === "totp"
        ? [{ type: "password" }, { type: "totp" }]
        : [{ type: secretMethod }];
  return [...stored, ...passkeys.map(passkeyMethod)];
}

/** A passkey as the API shows it: its id, relying party and dates, never its key. */
export function passkeyMethod(p: {
  id: string;
  rpId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}): PasskeyMethod {
  return {
    type: "passkey",
    passkeyId: p.id,
    rpId: p.rpId,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  };
}

/** GET /v1/credentials's query: page on after `before`, of one `site` (its origin is used) or `username`. */
export interface CredentialListQuery {
  before?: string;
  site?: string;
  username?: string;
}

export const credentialListQuerySchema = {
  type: "object",
  properties: {
    before: { type: "string", pattern: "^cred_[0-9A-Za-z]{22}$" },
    site: targetUrlSchema,
    username: { type: "string", minLength: 1, maxLength: 320 },
  },
} as const;

/** Bytes as a passkey export writes them: base64url, unpadded or padded (standard base64 is read too). */
const passkeyBytesSchema = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: "^[A-Za-z0-9+/_-]+={0,2}$", description });
const rpIdSchema = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: "^[A-Za-z0-9.-]+$",
  description:
    "The relying party the passkey was made for: the credential's login page's host or a parent domain of it, no higher than its registrable domain.",
});
/** A JSON object of any members: its type, for a part the API checks no further (or checks by itself). */
const anyObject = Type.Unsafe<Record<string, unknown>>({ type: "object", additionalProperties: {} });
const CREDENTIAL_ID_B64 = 1366; // 1023 bytes, WebAuthn's bound on a credential id
const USER_HANDLE_B64 = 88; // 64 bytes
const PRIVATE_KEY_B64 = 8192;

/**
 * A passkey the caller holds, brought to a credential: its fields (`credentialId`, `privateKey`, `rpId`,
 * `userHandle`, `signCount`), or `cxf`, a FIDO Credential Exchange Format passkey (or an item holding one).
 * Binary values are base64url (standard base64 is read too). Keys of the algorithms Chromium's virtual
 * authenticator signs with: ES256 (ECDSA P-256), EdDSA (Ed25519), RS256 (RSA, 2048 bits or more).
 */
export const passkeyImportSchema = Type.Object(
  {
    credentialId: Type.Optional(
      passkeyBytesSchema(CREDENTIAL_ID_B64, "The WebAuthn credential id (the passkey's rawId), base64url."),
    ),
    // A JWK is checked as a key is (passkey-import.ts), beyond its `kty`.
    privateKey: Type.Optional(
      describedLoosely(Type.Union([Type.String(), anyObject]), {
        description:
          "The passkey's private key: PKCS#8 DER as base64url, PKCS#8 PEM, or a private JWK (with `d`). ES256 (ECDSA P-256), EdDSA (Ed25519) or RS256 (RSA, 2048 bits or more): what the service's authenticator signs with.",
        anyOf: [
          { type: "string", minLength: 1, maxLength: PRIVATE_KEY_B64 },
          { type: "object", required: ["kty"], properties: { kty: { type: "string" } }, maxProperties: 32 },
        ],
      }),
    ),
    rpId: Type.Optional(rpIdSchema),
    userHandle: Type.Optional(
      passkeyBytesSchema(
        USER_HANDLE_B64,
        "The user handle the site gave the passkey (its user.id), base64url; 1 to 64 bytes.",
      ),
    ),
    signCount: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 4294967295, description: "The passkey's signature counter (default 0)." }),
    ),
    // Checked as a CXF passkey or item by passkey-import.ts (cxfPasskeySchema, cxfItemSchema).
    cxf: Type.Optional(
      describedLoosely(anyObject, {
        type: "object",
        description:
          'A FIDO Credential Exchange Format passkey credential (`type: "passkey"`, `credentialId`, `rpId`, `username`, `userDisplayName`, `userHandle`, `key`: PKCS#8 base64url), ' +
          "or an item (`id`, `title`, `credentials`, …) holding exactly one. Its counter starts at 0, as the format requires.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "A passkey you hold: its fields, or `cxf` (alone). Stored sealed as an enrolled one is; `login_method: passkey` signs in with it.",
  },
);
export type PasskeyImport = Static<typeof passkeyImportSchema>;

/** A CXF passkey credential (FIDO Credential Exchange Format, §Passkey). */
export interface CxfPasskey {
  type: "passkey";
  credentialId: string;
  rpId: string;
  username?: string;
  userDisplayName?: string;
  userHandle: string;
  key: string;
  fido2Extensions?: Record<string, unknown>;
}

export const cxfPasskeySchema = {
  type: "object",
  additionalProperties: false,
  required: ["type", "credentialId", "rpId", "userHandle", "key"],
  properties: {
    type: { const: "passkey" },
    credentialId: passkeyBytesSchema(CREDENTIAL_ID_B64, "The WebAuthn credential id, base64url."),
    rpId: rpIdSchema,
    username: { type: "string", maxLength: 1024 },
    userDisplayName: { type: "string", maxLength: 1024 },
    userHandle: passkeyBytesSchema(USER_HANDLE_B64, "The user handle, base64url."),
    key: passkeyBytesSchema(PRIVATE_KEY_B64, "The private key, PKCS#8 DER, base64url."),
    fido2Extensions: { type: "object" },
  },
} as const;

/** A CXF item: an entry of a credential manager, with the credentials it holds (one passkey among them, here). */
export const cxfItemSchema = {
  type: "object",
  additionalProperties: false,
  required: ["credentials"],
  properties: {
    id: { type: "string", maxLength: 1024 },
    creationAt: { type: "integer", minimum: 0 },
    modifiedAt: { type: "integer", minimum: 0 },
    title: { type: "string", maxLength: 1024 },
    subtitle: { type: "string", maxLength: 1024 },
    favorite: { type: "boolean" },
    scope: { type: "object" },
    credentials: {
      type: "array",
      minItems: 1,
      maxItems: 64,
      items: { type: "object", required: ["type"], properties: { type: { type: "string" } } },
    },
    tags: { type: "array", items: { type: "string" } },
    extensions: { type: "array" },
  },
} as const;

/**
 * POST /v1/credentials/{id}/passkeys: where the site keeps its passkeys, when the caller knows it; or
 * `import`, a passkey the caller already holds (no browser runs).
 */
export const passkeyEnrolRequestSchema = Type.Object(
  {
    settingsUrl: Type.Optional({
      ...targetUrlSchema,
      description:
        'The site\'s page where its passkeys are added (its security settings), on the credential\'s site. Without it, the page is found by the words of the site\'s links ("Security", "Passkeys", "Settings") from where the sign-in lands.',
    }),
    allowHandoff: Type.Optional(allowHandoffSchema),
    import: Type.Optional(passkeyImportSchema),
  },
  { $id: "PasskeyEnrolRequest", additionalProperties: false },
);
export type PasskeyEnrolRequest = Static<typeof passkeyEnrolRequestSchema>;

/** A stored credential's status, from its last successful login and its last error. */
export function credentialStatus(row: {
  lastLoginAt: Date | null;
  lastErrorCode: string | null;
}): CredentialResource["status"] {
  if (!row.lastLoginAt) return row.lastErrorCode === "verification_pending" ? "pending_verification" : "pending";
  return row.lastErrorCode ? "failing" : "active";
}

/** POST /v1/refresh: a credential named by id, or by the site, username and collection a login used. */
export const refreshRequestSchema = Type.Object(
  {
    credentialId: Type.Optional(Type.String({ pattern: "^cred_[0-9A-Za-z]{22}$" })),
    domain: Type.Optional(targetUrlSchema),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    collectionId: Type.Optional(collectionIdSchema),
    allowHandoff: Type.Optional(allowHandoffSchema),
    // Run on a worker of this region; the credential keeps it (its own region otherwise).
    region: Type.Optional(regionSchema),
  },
  { $id: "RefreshRequest", additionalProperties: false },
);
export type RefreshRequest = Static<typeof refreshRequestSchema>;

/**
 * POST /v1/credentials/{id}/verify: confirms the email of an account a signup left pending. A `link` or
 * `code` the caller read in their own mailbox, or neither: the confirmation link that reached the
 * organization's inbox (its mailbox, or the forwarding inbox) since the signup.
 */
export const verifyRequestSchema = Type.Object(
  {
    link: Type.Optional(targetUrlSchema),
    code: Type.Optional(Type.String({ minLength: 3, maxLength: 64, pattern: "^[0-9A-Za-z-]+$" })),
    allowHandoff: Type.Optional(allowHandoffSchema),
  },
  { $id: "VerifyRequest", additionalProperties: false },
);
export type VerifyRequest = Static<typeof verifyRequestSchema>;
