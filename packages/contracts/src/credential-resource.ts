/** Stored credentials, as the API shows them: metadata only, never a secret. */
import { Type, type Static } from "@sinclair/typebox";
import { LOGIN_METHODS, type LoginMethod } from "./login-request";
import { nullable } from "./nullable";
import { componentRef, describedLoosely } from "./schema-refs";
import { stringEnum } from "./string-enum";

/** A passkey as the API shows it: its id, relying party and dates, never its key. */
export const passkeyMethodSchema = Type.Object({
  type: Type.Literal("passkey"),
  passkeyId: Type.String({ pattern: "^pk_" }),
  rpId: Type.String({ description: "The relying party (the site's domain) the passkey is for." }),
  createdAt: Type.String({ format: "date-time" }),
  lastUsedAt: nullable(Type.String({ format: "date-time" })),
});
export type PasskeyMethod = Static<typeof passkeyMethodSchema>;

const SECRET_METHODS = LOGIN_METHODS.filter((m): m is Exclude<LoginMethod, "passkey"> => m !== "passkey");
/** The stored secret's way of signing in (a `totp` secret lists `password` and `totp`). */
export const secretMethodSchema = Type.Object({ type: stringEnum(SECRET_METHODS) });

/**
 * One way a credential signs in: the stored secret's method, or one of its passkeys. The OpenAPI document
 * says it as one object whose passkey fields are optional; the type tells the two apart by `type`.
 */
export const credentialMethodSchema = describedLoosely(Type.Union([passkeyMethodSchema, secretMethodSchema]), {
  type: "object",
  required: ["type"],
  description:
    "One way the credential signs in: its stored secret's method (a `totp` secret lists `password` and `totp`), or one of its passkeys (its id, relying party and dates; never its key).",
  properties: {
    type: { type: "string", enum: LOGIN_METHODS },
    passkeyId: { type: "string", pattern: "^pk_" },
    rpId: { type: "string", description: "The relying party (the site's domain) the passkey is for." },
    createdAt: { type: "string", format: "date-time" },
    lastUsedAt: { type: ["string", "null"], format: "date-time" },
  },
});
export type CredentialMethod = Static<typeof credentialMethodSchema>;

/**
 * `active`: the last login worked; `failing`: the last one failed (`lastError`); `pending`: none worked
 * yet; `pending_verification`: a signup created the account and its email is not confirmed yet.
 */
export const CREDENTIAL_STATUSES = ["active", "failing", "pending", "pending_verification"] as const;

export const credentialSchema = Type.Object({
  credentialId: Type.String({ pattern: "^cred_" }),
  site: Type.String({ description: "Origin of the site." }),
  loginPage: Type.String({
    description: "Origin + path of the login page: with username and collection, what names the credential.",
  }),
  loginUrl: Type.String(),
  username: Type.String(),
  collectionId: nullable(Type.String()),
  createdAt: Type.String({ format: "date-time" }),
  lastLoginAt: nullable(Type.String({ format: "date-time" })),
  status: stringEnum(CREDENTIAL_STATUSES),
  lastError: nullable(Type.String(), { description: "Error code of the last failed login." }),
  deviceRememberedAt: nullable(Type.String({ format: "date-time" }), {
    description:
      "Since when the service keeps the site's memory of this credential's browser: the long-lived cookies the site set to trust the device (after a second factor, or \"remember me\"), encrypted, brought into its next login or refresh so the site need not ask again. Null when none is kept.",
  }),
  region: nullable(Type.String(), {
    description:
      "The worker region its logins, refreshes and keep-alive run in: the last `region` a request named for it. Null: any worker.",
  }),
  methods: Type.Optional(
    Type.Array(componentRef("CredentialMethod", credentialMethodSchema), {
      description:
        "`GET /v1/credentials/{id}` only: how it signs in, its stored secret's method then its passkeys, oldest first. Empty before a login worked.",
    }),
  ),
});
export type CredentialResource = Static<typeof credentialSchema>;
