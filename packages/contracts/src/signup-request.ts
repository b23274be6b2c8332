import { Type, type Static } from "@sinclair/typebox";
import {
  additionalFieldsSchema,
  allowHandoffSchema,
  collectionIdSchema,
  printable,
  regionSchema,
  targetUrlSchema,
} from "./request-parts";
import { stringEnum } from "./string-enum";

/** Methods the schema accepts (spec §4.2); `oauth` signs up through a provider's button with a provider account. */
export const SIGNUP_METHODS = ["email", "invitation", "oauth"] as const;
export type SignupMethod = (typeof SIGNUP_METHODS)[number];
export const SUPPORTED_SIGNUP_METHODS: readonly SignupMethod[] = ["email", "invitation", "oauth"];

/** Providers a signup by OAuth may name by their short name; any other is named by `cred.provider`. */
export const OAUTH_PROVIDERS = ["google", "github"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export const signupCredSchema = Type.Object(
  {
    // One of the organization's mailboxes: the site's confirmation mail is read there.
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 320, format: "email" })),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 320, pattern: printable })),
    // Absent: the service generates one that satisfies the site's stated rules.
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    // The person's name, for name fields ("Ada Lovelace" fills first and last name fields too).
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: printable })),
    provider: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'For `signup_method: oauth`: the provider\'s issuer URL, or the label on its button on the site ("Okta", "Acme ID"). Or name Google or GitHub by `provider`.',
      }),
    ),
    totpSecret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: "For `signup_method: oauth`: the provider account's TOTP secret (base32 or otpauth:// URI).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SignupCred = Static<typeof signupCredSchema>;

export const signupRequestSchema = Type.Object(
  {
    signup_method: stringEnum(SIGNUP_METHODS),
    domain: targetUrlSchema,
    cred: Type.Optional(signupCredSchema),
    // The invitation link (a URL, opened as the signup page) or the token (typed into the page's invitation field).
    invite_token: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, pattern: printable })),
    collectionId: Type.Optional(collectionIdSchema),
    additionalFields: Type.Optional(additionalFieldsSchema),
    allowHandoff: Type.Optional(allowHandoffSchema),
    region: Type.Optional(regionSchema),
    // No `cred.email`: give the account a new mailbox of ours, so the confirmation mail can be read.
    allocateMailbox: Type.Optional(Type.Boolean()),
    createPasskey: Type.Optional(
      Type.Boolean({
        description:
          "Once the new account signed in, add a passkey where the site offers one (a page after the signup, or its security settings), as `POST /v1/credentials/{id}/passkeys` does. The answer's `passkey` names it; absent when the site offered none (the account stands). Not with `signup_method: oauth`.",
      }),
    ),
    provider: Type.Optional(
      stringEnum(OAUTH_PROVIDERS, {
        description:
          "For `signup_method: oauth`: sign up through Google or GitHub (any other provider: `cred.provider`).",
      }),
    ),
  },
  { $id: "SignupRequest", additionalProperties: false },
);
export type SignupRequest = Static<typeof signupRequestSchema>;
