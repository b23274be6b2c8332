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
// What refresh and verify answer, and what a signup answers: TypeBox schemas (stored-sessions.ts).
export {
  signupResultSchema as signupResult,
  storedCredentialSessionSchema as storedCredentialSession,
} from "./stored-sessions";
