import type { CredentialMethod } from "./credentials";
import {
  additionalFieldsSchema,
  allowHandoffSchema,
  collectionIdSchema,
  printable,
  regionSchema,
  targetUrlSchema,
} from "./request-parts";
import type { SessionResponse } from "./session";

/** Methods the schema accepts (spec §4.2); `oauth` signs up through a provider's button with a provider account. */
export const SIGNUP_METHODS = ["email", "invitation", "oauth"] as const;
export type SignupMethod = (typeof SIGNUP_METHODS)[number];
export const SUPPORTED_SIGNUP_METHODS: readonly SignupMethod[] = ["email", "invitation", "oauth"];

export interface SignupCred {
  /** One of the organization's mailboxes: the site's confirmation mail is read there. */
  email?: string;
  username?: string;
  /** Absent: the service generates one that satisfies the site's stated rules. */
  password?: string;
  /** The person's name, for name fields ("Ada Lovelace" fills first and last name fields too). */
  name?: string;
  /** `oauth` only: the provider's issuer URL, or the label on its button ("Okta", "Acme ID"); or name it by `provider`. */
  provider?: string;
  /** `oauth` only: the provider account's TOTP secret, for the provider's authenticator prompt. */
  totpSecret?: string;
}

/** Providers a signup by OAuth may name by their short name; any other is named by `cred.provider`. */
export const OAUTH_PROVIDERS = ["google", "github"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

export interface SignupRequest {
  signup_method: SignupMethod;
  domain: string;
  cred?: SignupCred;
  /** The invitation link (a URL, opened as the signup page) or the token (typed into the page's invitation field). */
  invite_token?: string;
  collectionId?: string;
  additionalFields?: Record<string, string | number | boolean>;
  /** No `cred.email`: give the account a new mailbox of ours, so the confirmation mail can be read. */
  allocateMailbox?: boolean;
  /** `signup_method: oauth`: the provider to sign up through, by its short name (or `cred.provider`). */
  provider?: OAuthProvider;
  /** A person may finish a step the service cannot (a CAPTCHA on the form, a step of the sign-in after it): the job waits in needs_input. */
  allowHandoff?: boolean;
  /** Run on a worker of this region (the credential keeps it). */
  region?: string;
  /** Once the new account signed in, add a passkey where the site offers one (see POST /v1/credentials/{id}/passkeys). */
  createPasskey?: boolean;
}

/** The account a signup created, as the site knows it (never its password). */
export interface SignupAccount {
  email: string | null;
  /** The username the site accepted: the one asked for, or a variant of it when that one was taken. */
  username: string | null;
  /** Whether the service made up the password (it is stored encrypted with the credential, never shown). */
  passwordGenerated: boolean;
}

/** What a successful signup answers (spec §2.2): the session, the stored credential and the account. */
export interface SignupResponse extends SessionResponse {
  credentialId: string;
  /** `createPasskey`: the passkey added to the new account (absent when the site offered none). */
  passkey?: Extract<CredentialMethod, { type: "passkey" }>;
  /** The latest persistent cookie's expiry; absent when every cookie is a browser-session cookie. */
  expiresAt?: string;
  account: SignupAccount;
}

export const signupRequestSchema = {
  $id: "SignupRequest",
  type: "object",
  additionalProperties: false,
  required: ["signup_method", "domain"],
  properties: {
    signup_method: { type: "string", enum: SIGNUP_METHODS },
    domain: targetUrlSchema,
    cred: {
      type: "object",
      additionalProperties: false,
      properties: {
        email: { type: "string", minLength: 3, maxLength: 320, format: "email" },
        username: { type: "string", minLength: 1, maxLength: 320, pattern: printable },
        password: { type: "string", minLength: 1, maxLength: 1024 },
        name: { type: "string", minLength: 1, maxLength: 200, pattern: printable },
        provider: {
          type: "string",
          minLength: 1,
          maxLength: 2048,
          description:
            'For `signup_method: oauth`: the provider\'s issuer URL, or the label on its button on the site ("Okta", "Acme ID"). Or name Google or GitHub by `provider`.',
        },
        totpSecret: {
          type: "string",
          minLength: 1,
          maxLength: 1024,
          description: "For `signup_method: oauth`: the provider account's TOTP secret (base32 or otpauth:// URI).",
        },
      },
    },
    invite_token: { type: "string", minLength: 1, maxLength: 4096, pattern: printable },
    collectionId: collectionIdSchema,
    additionalFields: additionalFieldsSchema,
    allowHandoff: allowHandoffSchema,
    region: regionSchema,
    allocateMailbox: { type: "boolean" },
    createPasskey: {
      type: "boolean",
      description:
        "Once the new account signed in, add a passkey where the site offers one (a page after the signup, or its security settings), as `POST /v1/credentials/{id}/passkeys` does. The answer's `passkey` names it; absent when the site offered none (the account stands). Not with `signup_method: oauth`.",
    },
    provider: {
      type: "string",
      enum: OAUTH_PROVIDERS,
      description:
        "For `signup_method: oauth`: sign up through Google or GitHub (any other provider: `cred.provider`).",
    },
  },
} as const;
