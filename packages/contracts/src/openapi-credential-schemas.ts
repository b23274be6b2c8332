// The OpenAPI document's schemas of a stored credential and what makes one: its resource and methods,
// the passkeys added to it, the answers of signup, refresh and verify, and the hosted entry link.

export const credentialMethod = {
  type: "object",
  required: ["type"],
  description:
    "One way the credential signs in: its stored secret's method (a `totp` secret lists `password` and `totp`), or one of its passkeys (its id, relying party and dates; never its key).",
  properties: {
    type: {
      type: "string",
      enum: [
        "password",
        "totp",
        "otp_email",
        "magic_link",
        "otp_sms",
        "oauth_google",
        "oauth_github",
        "oauth",
        "passkey",
      ],
    },
    passkeyId: { type: "string", pattern: "^pk_" },
    rpId: { type: "string", description: "The relying party (the site's domain) the passkey is for." },
    createdAt: { type: "string", format: "date-time" },
    lastUsedAt: { type: ["string", "null"], format: "date-time" },
  },
};

export const passkeyEnrolment = {
  allOf: [
    { $ref: "#/components/schemas/StoredCredentialSession" },
    {
      type: "object",
      required: ["passkey"],
      properties: { passkey: { $ref: "#/components/schemas/CredentialMethod" } },
    },
  ],
};
// What an import answers: the passkey kept, with no session (no browser ran).
export const passkeyImported = {
  type: "object",
  required: ["passkey", "credentialId"],
  additionalProperties: false,
  properties: {
    passkey: { $ref: "#/components/schemas/CredentialMethod" },
    credentialId: { type: "string", pattern: "^cred_" },
  },
};
// POST /v1/credentials/{id}/passkeys: an enrolment's sign-in and passkey, or an import's passkey.
export const passkeyAdded = {
  oneOf: [{ $ref: "#/components/schemas/PasskeyEnrolment" }, { $ref: "#/components/schemas/PasskeyImported" }],
};
// What refresh and verify answer: a login's session, with the stored credential it signed in with.
export const storedCredentialSession = {
  allOf: [
    { $ref: "#/components/schemas/Session" },
    {
      type: "object",
      required: ["credentialId"],
      properties: {
        credentialId: { type: "string", pattern: "^cred_" },
        expiresAt: {
          type: "string",
          format: "date-time",
          description: "The latest persistent cookie's expiry; absent when all cookies are session cookies.",
        },
      },
    },
  ],
};
export const signupResult = {
  allOf: [
    { $ref: "#/components/schemas/Session" },
    {
      type: "object",
      required: ["credentialId", "account"],
      properties: {
        credentialId: {
          type: "string",
          pattern: "^cred_",
          description: "The stored credential: POST /refresh logs in with it.",
        },
        expiresAt: {
          type: "string",
          format: "date-time",
          description: "The latest persistent cookie's expiry; absent when all cookies are session cookies.",
        },
        account: {
          type: "object",
          required: ["email", "username", "passwordGenerated"],
          properties: {
            email: { type: ["string", "null"] },
            username: {
              type: ["string", "null"],
              description: "As the site accepted it: a variant when the one asked for was taken.",
            },
            passwordGenerated: {
              type: "boolean",
              description: "The service made up the password; it is stored encrypted and never shown.",
            },
          },
        },
        passkey: {
          $ref: "#/components/schemas/CredentialMethod",
          description: "`createPasskey`: the passkey added to the new account; absent when the site offered none.",
        },
      },
    },
  ],
};
export const credential = {
  type: "object",
  required: [
    "credentialId",
    "site",
    "loginPage",
    "loginUrl",
    "username",
    "collectionId",
    "createdAt",
    "lastLoginAt",
    "status",
    "lastError",
    "deviceRememberedAt",
    "region",
  ],
  properties: {
    credentialId: { type: "string", pattern: "^cred_" },
    site: { type: "string", description: "Origin of the site." },
    loginPage: {
      type: "string",
      description: "Origin + path of the login page: with username and collection, what names the credential.",
    },
    loginUrl: { type: "string" },
    username: { type: "string" },
    collectionId: { type: ["string", "null"] },
    createdAt: { type: "string", format: "date-time" },
    lastLoginAt: { type: ["string", "null"], format: "date-time" },
    status: { type: "string", enum: ["active", "failing", "pending", "pending_verification"] },
    lastError: { type: ["string", "null"], description: "Error code of the last failed login." },
    deviceRememberedAt: {
      type: ["string", "null"],
      format: "date-time",
      description:
        "Since when the service keeps the site's memory of this credential's browser: the long-lived cookies the site set to trust the device (after a second factor, or \"remember me\"), encrypted, brought into its next login or refresh so the site need not ask again. Null when none is kept.",
    },
    region: {
      type: ["string", "null"],
      description:
        "The worker region its logins, refreshes and keep-alive run in: the last `region` a request named for it. Null: any worker.",
    },
    methods: {
      type: "array",
      items: { $ref: "#/components/schemas/CredentialMethod" },
      description:
        "`GET /v1/credentials/{id}` only: how it signs in, its stored secret's method then its passkeys, oldest first. Empty before a login worked.",
    },
  },
};
