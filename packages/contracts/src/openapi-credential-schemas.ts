// The OpenAPI document's schemas of a stored credential and what makes one: its resource and methods,
// the passkeys added to it, the answers of signup, refresh and verify, and the hosted entry link.

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
