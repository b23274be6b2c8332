import { SUPPORTED_LOGIN_METHODS, type LoginMethod } from "./login-request";
import type { SignupMethod } from "./signup-request";

/**
 * The input of an auth job: what a browser run needs that may not travel through Redis (passwords, TOTP
 * secrets, invitation links). It is stored encrypted on the job's record (and, once a login worked, what
 * logs in again is kept on its credential as a `LoginSecret`); the queue payload carries ids only.
 * New fields must be optional: records written by the previous deploy are read by the next one.
 */

/** One of the org's inboxes where the site sends its code or link. */
export type InboxRef = EmailInboxRef | SmsInboxRef;

export interface EmailInboxRef {
  kind: "email";
  mailboxId: string;
  /** The address the site knows, with its +tag if it has one; only mail sent to it is read. */
  address: string;
  /**
   * The mailbox is the org's forwarding inbox and `address` the caller's own: only mail first sent to
   * `address` (its forwarded copies) and coming from the site is read.
   */
  forwarded?: boolean;
}

export interface SmsInboxRef {
  kind: "sms";
  phoneNumberId: string;
  number: string;
}

export type AdditionalFields = Record<string, string | number | boolean>;

/** The `cred` fields every login method may carry, as the request gave them. */
interface LoginFields {
  email?: string;
  phone?: string;
  password?: string;
  totpSecret?: string;
  additionalFields?: AdditionalFields;
  inbox?: InboxRef;
  /**
   * A signup made the account without a password and the site's mail (its password, or a link to set
   * one) never came: `password` is only the caller's to set, if any. A verify job with the link, or the
   * mail in the inbox, sets it; a login with this secret would be refused.
   */
  awaitsPassword?: boolean;
  /** The request's proxy choice (a login's): only the job's; the credential keeps its proxy, not this. */
  egress?: { proxy?: string; proxyPool?: string };
}

/**
 * What a login signs in with, typed per method: the secret kept on a credential after a login worked, so
 * a refresh or keep-alive asks exactly the same. A code by email or a magic link needs an email inbox, a
 * code by SMS a phone number's.
 */
export type LoginSecret =
  | (LoginFields & { method: "password" | "totp" })
  | (LoginFields & { method: "otp_email" | "magic_link"; inbox: EmailInboxRef })
  | (LoginFields & { method: "otp_sms"; inbox: SmsInboxRef })
  | (LoginFields & { method: OAuthLoginMethod; provider: string })
  | (LoginFields & { method: "passkey" });

/** Methods that sign in through a provider's button; the credential's password is the provider account's. */
export type OAuthLoginMethod = "oauth_google" | "oauth_github" | "oauth";
export const isOAuthMethod = (method: string): method is OAuthLoginMethod =>
  method === "oauth_google" || method === "oauth_github" || method === "oauth";

/**
 * The provider an OAuth login signs in with, as the job and the provider session store name it:
 * `google`, `github`, or what `cred.provider` said (an issuer URL, or a button's label).
 */
export function oauthProviderOf(method: OAuthLoginMethod, provider?: string): string {
  if (method === "oauth_google") return "google";
  if (method === "oauth_github") return "github";
  return provider ?? "";
}

/** The login method that signs in again through a provider an OAuth signup used. */
export function oauthMethodFor(provider: string): OAuthLoginMethod {
  return provider === "google" ? "oauth_google" : provider === "github" ? "oauth_github" : "oauth";
}

/** A verify job's confirmation: the link or code the caller sent, or the time (ISO) from which the inbox holds the site's mail. */
export type Confirmation = { link: string } | { code: string } | { inboxSince: string };

/**
 * Each input says which flow it is for by its `kind`: `login` (jobs of kind `login` and `refresh`), `verify`,
 * `signup`, `passkey_enrol`. Inputs stored before the tag existed have none: `readJobInput` tells them apart.
 */

/** Kinds `login` and `refresh`: a login with these fields. */
export type LoginJobInput = LoginSecret & { kind: "login" };

/** Kind `verify`: confirm a pending signup's email, then log in like a refresh. A credential's secret never has `confirmation`. */
export type VerifyJobInput = LoginFields & { kind: "verify"; method: "password"; confirmation: Confirmation };

/**
 * Kind `signup`: the account to create, typed by its method as the request's validation leaves it
 * (parseSignupRequest): an account of the site's own, or one made through a provider's button with a
 * provider account. Its inputs never reach a credential's secret.
 */
export type SignupJobInput = SiteSignupJobInput | OAuthSignupJobInput;

/** `email`, `invitation`: the site's own account, its confirmation mail read in the inbox. */
export interface SiteSignupJobInput extends SignupFields {
  method: Exclude<SignupMethod, "oauth">;
  /** The site account's email. */
  email?: string;
  /** The account's password (absent: generated). */
  password?: string;
  /** Add a passkey once the new account signed in. */
  createPasskey?: boolean;
}

/** `oauth`: through the provider's button, with the provider account. */
export interface OAuthSignupJobInput extends SignupFields {
  method: "oauth";
  /** The email (or login) of the provider account. */
  email: string;
  /** The provider account's password. */
  password: string;
  /** The provider (`google`, `github`, an issuer URL or a button label) and its account's TOTP secret. */
  provider: string;
  totpSecret?: string;
}

/** What a signup of any method carries. */
interface SignupFields {
  kind: "signup";
  additionalFields?: AdditionalFields;
  inbox?: EmailInboxRef;
  signup: {
    username?: string;
    name?: string;
    /** An invitation token typed into the page. */
    inviteToken?: string;
    /** An invitation link, opened instead of the signup page: a secret, so never in a plain column. */
    inviteLink?: string;
  };
}

/**
 * Kind `passkey_enrol`: sign in with the credential's stored secret, then add a passkey on the site's
 * settings page (the caller's `settingsUrl`, or found by its links). Its `enrol` never reaches the secret.
 */
export type PasskeyEnrolJobInput = LoginSecret & { kind: "passkey_enrol"; enrol: { settingsUrl?: string } };

export type JobKind = "login" | "refresh" | "signup" | "verify" | "passkey_enrol";

export type JobInput = LoginJobInput | VerifyJobInput | SignupJobInput | PasskeyEnrolJobInput;

/** The flow a job's input is for (a refresh's is a `login`). */
export type FlowKind = JobInput["kind"];

/** A job's input as stored: one written before inputs were tagged has no `kind`. */
export type StoredJobInput = JobInput | DistributiveOmit<JobInput, "kind">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A job's input as stored, read back with its `kind`: the one place an untagged input (written before the
 * tag) has its kind told from its shape, as the flows once did: a `signup` part is a signup's, a
 * `confirmation` a verify's, an `enrol` a passkey enrolment's, anything else a login's.
 */
export function readJobInput(stored: StoredJobInput): JobInput {
  if ("kind" in stored && stored.kind) return stored;
  const kind: FlowKind =
    "signup" in stored && stored.signup !== undefined
      ? "signup"
      : "confirmation" in stored && stored.confirmation !== undefined
        ? "verify"
        : "enrol" in stored && stored.enrol !== undefined
          ? "passkey_enrol"
          : "login";
  return { ...stored, kind } as JobInput;
}

/**
 * A credential's secret as stored, read back: secrets written before methods were recorded (or by a
 * method no longer run) log in with a password, as they were made.
 */
export function readLoginSecret(stored: LoginFields & { method?: string }): LoginSecret {
  const method = (SUPPORTED_LOGIN_METHODS as readonly string[]).includes(stored.method ?? "")
    ? (stored.method as LoginMethod)
    : "password";
  return { ...stored, method } as LoginSecret;
}

/** A secret that signs in through a provider's button (its method says so): it names the provider. */
export const isOAuthSecret = (secret: LoginSecret): secret is Extract<LoginSecret, { provider: string }> =>
  isOAuthMethod(secret.method);
