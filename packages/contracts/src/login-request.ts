import { proxyIdSchema, proxyLabelSchema } from "./proxies";
import {
  additionalFieldsSchema,
  allowHandoffSchema,
  collectionIdSchema,
  regionSchema,
  targetUrlSchema,
} from "./request-parts";

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

export interface LoginCred {
  /** Optional for `password` logins: some pages ask only for a password (a site password, a router). */
  username?: string;
  email?: string;
  password?: string;
  /** The site's TOTP secret (base32 or an otpauth://totp/ URI), for a code asked after the password. */
  totpSecret?: string;
  /** One of the organization's phone numbers (E.164), where the site sends its SMS code. */
  phone?: string;
  /** `oauth` only: the provider's issuer URL, or the label on its button ("Okta", "Acme ID"). */
  provider?: string;
}

export interface LoginRequest {
  cred: LoginCred;
  domain: string;
  login_method?: LoginMethod;
  loginMethod?: LoginMethod;
  collectionId?: string;
  additionalFields?: Record<string, string | number | boolean>;
  useCache?: boolean;
  /** Let a person answer a step the service cannot (a code it cannot read): the job waits in `needs_input`. */
  allowHandoff?: boolean;
  /** Leave through this proxy of the organization (the credential keeps it). */
  proxy?: string;
  /** Leave through a proxy of this pool (the credential keeps its member). */
  proxyPool?: string;
  /** Run on a worker of this region (the credential keeps it). */
  region?: string;
}

const method = { type: "string", enum: LOGIN_METHODS };

export const loginRequestSchema = {
  $id: "LoginRequest",
  type: "object",
  additionalProperties: false,
  required: ["cred", "domain"],
  properties: {
    cred: {
      type: "object",
      additionalProperties: false,
      properties: {
        username: {
          type: "string",
          maxLength: 320,
          description:
            "What the login form asks to identify the account (username, email, account number); `email` when absent. " +
            "A `password` login may send neither, for pages that ask only for a password. An empty (or blank) string counts as absent.",
        },
        email: { type: "string", minLength: 3, maxLength: 320, format: "email" },
        password: { type: "string", minLength: 1, maxLength: 1024 },
        totpSecret: { type: "string", minLength: 1, maxLength: 1024 },
        phone: { type: "string", pattern: "^\\+[1-9][0-9]{7,14}$" },
        provider: {
          type: "string",
          minLength: 1,
          maxLength: 2048,
          description:
            'For `login_method: oauth` (required there, refused with any other method): the provider\'s issuer URL, or the label on its button on the site ("Okta", "Acme ID").',
        },
      },
    },
    domain: targetUrlSchema,
    login_method: method,
    loginMethod: method,
    collectionId: collectionIdSchema,
    additionalFields: additionalFieldsSchema,
    useCache: { type: "boolean" },
    allowHandoff: allowHandoffSchema,
    proxy: {
      ...proxyIdSchema,
      description:
        "Leave through this proxy of the organization (`POST /v1/proxies`); the credential keeps it for its later logins, refreshes and keep-alive.",
    },
    proxyPool: {
      ...proxyLabelSchema,
      description:
        "Leave through a proxy of this pool (the proxies of that `label`); the credential keeps the member it was given.",
    },
    region: regionSchema,
  },
} as const;
