/** The answers that are a login's session and more (refresh's and verify's, a signup's, a passkey enrolment's), and an import's. */
import { Type, type Static } from "@sinclair/typebox";
import { passkeyMethodSchema } from "./credential-resource";
import { nullable } from "./nullable";
import { componentRef, describedLoosely } from "./schema-refs";
import { sessionSchema } from "./session";

const sessionRef = componentRef("Session", sessionSchema);
const expiresAtSchema = Type.String({
  format: "date-time",
  description: "The latest persistent cookie's expiry; absent when all cookies are session cookies.",
});

/** What refresh and verify answer: a login's session, with the stored credential it signed in with. */
export const storedCredentialSessionSchema = Type.Intersect([
  sessionRef,
  Type.Object({
    credentialId: Type.String({ pattern: "^cred_" }),
    expiresAt: Type.Optional(expiresAtSchema),
  }),
]);
export type StoredCredentialSession = Static<typeof storedCredentialSessionSchema>;

/** The account a signup created, as the site knows it (never its password). */
export const signupAccountSchema = Type.Object({
  email: nullable(Type.String()),
  username: nullable(Type.String(), {
    description: "As the site accepted it: a variant when the one asked for was taken.",
  }),
  passwordGenerated: Type.Boolean({
    description: "The service made up the password; it is stored encrypted and never shown.",
  }),
});
export type SignupAccount = Static<typeof signupAccountSchema>;

/** What a successful signup answers (spec §2.2): the session, the stored credential and the account. */
export const signupResultSchema = Type.Intersect([
  sessionRef,
  Type.Object({
    credentialId: Type.String({
      pattern: "^cred_",
      description: "The stored credential: POST /refresh logs in with it.",
    }),
    expiresAt: Type.Optional(expiresAtSchema),
    account: signupAccountSchema,
    // The document names the credential's methods; a signup's passkey is always a passkey.
    passkey: Type.Optional(
      describedLoosely(passkeyMethodSchema, {
        $ref: "#/components/schemas/CredentialMethod",
        description: "`createPasskey`: the passkey added to the new account; absent when the site offered none.",
      }),
    ),
  }),
]);
export type SignupResponse = Static<typeof signupResultSchema>;

// The document names the credential's methods where an answer carries a passkey, which is always one.
const passkeyRef = describedLoosely(passkeyMethodSchema, { $ref: "#/components/schemas/CredentialMethod" });

/** What adding a passkey answers: the session of the sign-in it made, and the passkey (its id, relying party). */
export const passkeyEnrolmentSchema = Type.Intersect([
  componentRef("StoredCredentialSession", storedCredentialSessionSchema),
  Type.Object({ passkey: passkeyRef }),
]);
export type PasskeyEnrolment = Static<typeof passkeyEnrolmentSchema>;

/** What importing a passkey answers: the passkey kept (never its key) and the credential; no browser ran. */
export const passkeyImportedSchema = Type.Object(
  { passkey: passkeyRef, credentialId: Type.String({ pattern: "^cred_" }) },
  { additionalProperties: false },
);
export type PasskeyImported = Static<typeof passkeyImportedSchema>;

/** POST /v1/credentials/{id}/passkeys: an enrolment's sign-in and passkey, or an import's passkey. */
export const passkeyAddedSchema = Type.Unsafe<PasskeyEnrolment | PasskeyImported>({
  oneOf: [{ $ref: "#/components/schemas/PasskeyEnrolment" }, { $ref: "#/components/schemas/PasskeyImported" }],
});
