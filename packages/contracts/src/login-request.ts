import { Type, type Static } from "@sinclair/typebox";
import { proxyIdSchema, proxyLabelSchema } from "./proxies";
import {
  additionalFieldsSchema,
  allowHandoffSchema,
  collectionIdSchema,
  regionSchema,
  targetUrlSchema,
} from "./request-parts";
import { stringEnum } from "./string-enum";

/** Methods the schema accepts (spec §4.1); which of them run today is `SUPPORTED_LOGIN_METHODS`. */
export const LOGIN_METHODS = [
  "password",
  "oauth_google",
  "oauth_github",
  "oauth",
  "magic_link",
  "otp_email",
  "otp_sms",
  "totp",
  "passkey",
] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];
// `totp`: a password login whose second factor is an authenticator code (cred.totpSecret required).
// `otp_email`, `magic_link`: the code or link goes to one of the org's mailboxes (cred.email).
// `otp_sms`: the code goes to one of the org's phone numbers (cred.phone).
// `oauth_google`, `oauth_github`, `oauth`: sign in through the provider's button; `oauth` names its provider in cred.provider.
// `passkey`: the credential's stored passkey (POST /v1/credentials/{id}/passkeys made it); no password is sent.
export const SUPPORTED_LOGIN_METHODS: readonly LoginMethod[] = [
  "password",
  "totp",
  "otp_email",
  "magic_link",
  "otp_sms",
  "oauth_google",
  "oauth_github",
  "oauth",
  "passkey",
];
/** Methods whose code or link arrives in one of the service's own inboxes. */
export const INBOX_METHODS: readonly LoginMethod[] = ["otp_email", "magic_link", "otp_sms"];

const method = stringEnum(LOGIN_METHODS);

export const loginCredSchema = Type.Object(
  {
    username: Type.Optional(
      Type.String({
        maxLength: 320,
        description:
          "What the login form asks to identify the account (username, email, account number); `email` when absent. " +
          "A `password` login may send neither, for pages that ask only for a password. An empty (or blank) string counts as absent.",
      }),
    ),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 320, format: "email" })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    totpSecret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: "The site's TOTP secret (base32 or an otpauth://totp/ URI), for a code asked after the password.",
      }),
    ),
    phone: Type.Optional(
      Type.String({
        pattern: "^\\+[1-9][0-9]{7,14}$",
        description: "One of the organization's phone numbers (E.164), where the site sends its SMS code (`otp_sms`).",
      }),
    ),
    provider: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'For `login_method: oauth` (required there, refused with any other method): the provider\'s issuer URL, or the label on its button on the site ("Okta", "Acme ID").',
      }),
    ),
  },
  { additionalProperties: false },
);
export type LoginCred = Static<typeof loginCredSchema>;

export const loginRequestSchema = Type.Object(
  {
    cred: loginCredSchema,
    domain: targetUrlSchema,
    login_method: Type.Optional(method),
    loginMethod: Type.Optional(method),
    collectionId: Type.Optional(collectionIdSchema),
    additionalFields: Type.Optional(additionalFieldsSchema),
    useCache: Type.Optional(
      Type.Boolean({ description: "Default true: a valid cached session is answered without a browser." }),
    ),
    allowHandoff: Type.Optional(allowHandoffSchema),
    proxy: Type.Optional(
      Type.String({
        ...proxyIdSchema,
        description:
          "Leave through this proxy of the organization (`POST /v1/proxies`); the credential keeps it for its later logins, refreshes and keep-alive.",
      }),
    ),
    proxyPool: Type.Optional(
      Type.String({
        ...proxyLabelSchema,
        description:
          "Leave through a proxy of this pool (the proxies of that `label`); the credential keeps the member it was given.",
      }),
    ),
    region: Type.Optional(regionSchema),
  },
  { $id: "LoginRequest", additionalProperties: false },
);
export type LoginRequest = Static<typeof loginRequestSchema>;
