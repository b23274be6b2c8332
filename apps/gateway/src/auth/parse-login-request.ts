import {
  compileValidator,
  INBOX_METHODS,
  isOAuthMethod,
  loginPageOf,
  loginRequestSchema,
  oauthProviderOf,
  SUPPORTED_LOGIN_METHODS,
  type LoginMethod,
} from "@authsvc/contracts";
import { parseTotpSecret, TotpSecretError } from "@authsvc/crypto";
import type { Confirmation } from "@authsvc/contracts";
import { ApiError } from "../http/api-error";

const validate = compileValidator(loginRequestSchema);

export interface LoginCommand {
  method: LoginMethod;
  loginUrl: string;
  /** Origin + path of `loginUrl`: what sessions, single-flight jobs and credentials are keyed by. */
  loginPage: string;
  /** Empty for a `password` login without `cred.username`/`cred.email` (a page that asks only for a password). */
  identifier: string;
  /** Absent only for methods whose code or link arrives in our inbox (a site may not ask for one). */
  password?: string;
  /** Where a code or link by email is read: one of the org's mailboxes (checked by the login service). */
  email?: string;
  /** Where a code by SMS is read: one of the org's phone numbers (checked by the login service). */
  phone?: string;
  /** As the caller sent it; checked to be a readable TOTP secret. */
  totpSecret?: string;
  collectionId?: string;
  additionalFields?: Record<string, string | number | boolean>;
  useCache: boolean;
  /** A verify job's confirmation (POST /v1/credentials/{id}/verify); a login request never has one. */
  confirmation?: Confirmation;
  /** OAuth methods: the provider (`google`, `github`, or `cred.provider` as given). */
  provider?: string;
  /** A passkey enrolment's (POST /v1/credentials/{id}/passkeys): signed in, a passkey is added; a login request never has one. */
  enrol?: { settingsUrl?: string };
  /** With `confirmation`: the account waits for the password the site mails (LoginSecret.awaitsPassword). */
  awaitsPassword?: boolean;
  /** A person may answer a step the service cannot (the job waits in needs_input). */
  allowHandoff?: boolean;
  /** The proxy (by id) or pool (by label) the request names; the credential's own proxy otherwise. */
  egress?: { proxy?: string; proxyPool?: string };
  /** The worker region the request names (the credential keeps it); its own otherwise. */
  region?: string;
}

/** Validates a POST /v1/login body and resolves its rules (method spellings, method support, cred fields). */
export function parseLoginRequest(body: unknown): LoginCommand {
  const checked = validate(body);
  if (!checked.ok) throw ApiError.invalid(checked.errors);
  const req = checked.value;

  if (req.login_method && req.loginMethod && req.login_method !== req.loginMethod) {
    throw ApiError.invalid([
      { field: "/loginMethod", message: `conflicts with login_method ("${req.login_method}"); send one of them` },
    ]);
  }
  const method = req.login_method ?? req.loginMethod;
  if (!method)
    throw ApiError.invalid([{ field: "/login_method", message: "is required (login_method or loginMethod)" }]);
  // The request's shape is checked before whether its method runs yet, so a caller can build against it now.
  if (method === "oauth" && !req.cred.provider) {
    throw ApiError.invalid([
      {
        field: "/cred/provider",
        message: "is required for login_method oauth: the provider's issuer URL or the label on its button",
      },
    ]);
  }
  if (req.cred.provider !== undefined && method !== "oauth") {
    throw ApiError.invalid([
      {
        field: "/cred/provider",
        message: `is only for login_method oauth; ${method === "oauth_google" || method === "oauth_github" ? `${method} names its provider` : `${method} signs in on the site itself`}`,
      },
    ]);
  }
  if (!SUPPORTED_LOGIN_METHODS.includes(method)) {
    throw new ApiError(
      "method_not_supported",
      `Login method "${method}" is not available yet; supported: ${SUPPORTED_LOGIN_METHODS.join(", ")}.`,
    );
  }

  // An empty or blank username is absent: agent code often sends `username: ""` for a password-only page.
  const cred = { ...req.cred, username: req.cred.username?.trim() ? req.cred.username : undefined };
  // What the site's form is given to identify the account; an SMS login may know it by phone number only.
  const identifier = cred.username ?? cred.email ?? (method === "otp_sms" ? cred.phone : undefined);
  // The mailbox a code or link goes to: cred.email, or a username that is an email address.
  const email = cred.email ?? (cred.username && /^[^@\s]+@[^@\s]+$/.test(cred.username) ? cred.username : undefined);
  const missing = [];
  // A password login may have no identifier: sites and devices that ask only for a password.
  if (!identifier && method !== "password")
    missing.push({ field: "/cred/username", message: `is required for login_method ${method} (or cred.email)` });
  // A passkey login sends no password: one given would be a secret the request need not carry.
  if (method === "passkey" && (cred.password || cred.totpSecret)) {
    missing.push({
      field: cred.password ? "/cred/password" : "/cred/totpSecret",
      message: "is not sent with login_method passkey: the credential's stored passkey signs in, and nothing is typed",
    });
  }
  if (!cred.password && !INBOX_METHODS.includes(method) && method !== "passkey")
    missing.push({ field: "/cred/password", message: `is required for login_method ${method}` });
  if (method === "totp" && !cred.totpSecret)
    missing.push({ field: "/cred/totpSecret", message: "is required for login_method totp" });
  if ((method === "otp_email" || method === "magic_link") && !email) {
    missing.push({
      field: "/cred/email",
      message: `is required for login_method ${method}: one of your mailboxes (POST /v1/mailboxes)`,
    });
  }
  if (method === "otp_sms" && !cred.phone)
    missing.push({
      field: "/cred/phone",
      message: "is required for login_method otp_sms: one of your phone numbers (POST /v1/phone-numbers)",
    });
  if (missing.length) throw ApiError.invalid(missing);

  if (req.cred.totpSecret !== undefined) {
    try {
      parseTotpSecret(req.cred.totpSecret);
    } catch (err) {
      if (!(err instanceof TotpSecretError)) throw err;
      throw ApiError.invalid([{ field: "/cred/totpSecret", message: err.message }]);
    }
  }

  let url: URL;
  try {
    url = new URL(req.domain);
  } catch {
    throw ApiError.invalid([{ field: "/domain", message: "is not a valid URL" }]);
  }
  if (req.proxy && req.proxyPool)
    throw ApiError.invalid([{ field: "/proxyPool", message: "name a proxy or a pool, not both" }]);
  if (url.username || url.password) {
    throw ApiError.invalid([{ field: "/domain", message: "must not contain credentials; send them in cred" }]);
  }
  return {
    method,
    loginUrl: url.toString(),
    loginPage: loginPageOf(url.toString()),
    identifier: identifier ?? "",
    password: cred.password,
    email,
    phone: cred.phone,
    totpSecret: cred.totpSecret,
    collectionId: req.collectionId,
    additionalFields: req.additionalFields,
    useCache: req.useCache ?? true,
    allowHandoff: req.allowHandoff === true,
    egress: req.proxy ? { proxy: req.proxy } : req.proxyPool ? { proxyPool: req.proxyPool } : undefined,
    region: req.region,
    provider: isOAuthMethod(method) ? oauthProviderOf(method, cred.provider?.trim()) : undefined,
  };
}
