/**
 * Every failure the API answers with, its HTTP status and what it means. The codes are stable: clients
 * branch on them. docs/errors.md is the human-readable copy of this table.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, meaning: "The body or a parameter is invalid; `details` names each field and why." },
  invalid_json: { status: 400, meaning: "The body is not well-formed JSON." },
  unauthorized: { status: 401, meaning: "The Authorization header is missing, malformed, unknown or revoked." },
  not_found: { status: 404, meaning: "No such resource for this organization, or no such route." },
  conflict: {
    status: 409,
    meaning:
      "The address or phone number is already taken (by this or another organization), or a domain and username name credentials on several login pages of one site.",
  },
  account_exists: {
    status: 409,
    meaning:
      "The target site already has an account for this email address (signup); log in with POST /v1/login instead. Never retried.",
  },
  payload_too_large: { status: 413, meaning: "The body is larger than the gateway accepts." },
  unsupported_media_type: { status: 415, meaning: "The body is not sent as application/json." },
  idempotency_mismatch: {
    status: 422,
    meaning:
      "The Idempotency-Key was used in the last 24 hours for a request with another body or endpoint; use a new key for a new request.",
  },
  invalid_credentials: { status: 422, meaning: "The target site refused the username or password. Never retried." },
  form_not_found: { status: 422, meaning: "No login form was found on the page at `domain`." },
  form_ambiguous: {
    status: 422,
    meaning:
      "The login form has several fields the username could go in and nothing on the page tells which (nothing was typed or sent); `details` names each: `field` is `/additionalFields/<its name>`, `message` its label. Name every one but the username's in `additionalFields` (by label or name; an empty string leaves a field empty) and send again.",
  },
  captcha_blocked: { status: 422, meaning: "The target site asked for a CAPTCHA." },
  login_blocked: {
    status: 422,
    meaning:
      "The target site's risk check refused the sign-in from this browser, address or device (\"unusual activity\", \"try again from your usual device\"), not the credentials; the message is the site's words. An organization's proxy, or the credential's remembered device, may be what it wants. Never retried.",
  },
  account_locked: {
    status: 422,
    meaning: "The target site said the account is locked, suspended or blocked after too many attempts. Never retried.",
  },
  mfa_required: {
    status: 422,
    meaning:
      "The target site asked for a second factor, or another step only the account's person can take (a security question, \"verify it's you\", its terms to accept), that the request gave no way to answer (send `allowHandoff: true` to have a person answer it).",
  },
  input_timeout: {
    status: 422,
    meaning:
      "The job waited for a person's input (`needs_input`) and none came before `input.expiresAt`; the site has seen the password, and it is not sent again. Never retried.",
  },
  handoff_interrupted: {
    status: 422,
    meaning:
      "The job was waiting for a person's input when its worker stopped; the page it held is gone, and the password is not sent again. Start a new request.",
  },
  not_waiting_for_input: {
    status: 409,
    meaning:
      "The job is not waiting for input now (it ended, runs on, or an answer was given already); read GET /v1/jobs/{jobId}.",
  },
  verification_failed: {
    status: 422,
    meaning:
      "The target site refused the one-time code (authenticator, email or SMS) or the sign-in link (wrong, expired or used). Never retried.",
  },
  provider_blocked: {
    status: 422,
    meaning:
      "The sign-in provider (Google, GitHub, the OpenID provider) refused this browser: an insecure-browser or unusual-activity wall. Never retried.",
  },
  consent_denied: {
    status: 422,
    meaning:
      "The sign-in provider did not grant the site access to the account (the authorization was denied or cancelled), or the person a hand-off asked declined the site's terms and the site kept the account out. Never retried.",
  },
  account_not_linked: {
    status: 422,
    meaning:
      "The provider signed the account in, but the site refused it: no account on the site is linked to that provider account. Never retried.",
  },
  login_unconfirmed: {
    status: 422,
    meaning:
      "The form was submitted but the page showed neither a signed-in state nor an error, or the login was cut off after the submit (its worker or browser died); it is not submitted again.",
  },
  passkey_not_offered: {
    status: 422,
    meaning:
      "The site offers no way to add a passkey (no settings page it links to, or the one given, has one) or to sign in with one (its login page asks for the password only), or the credential holds no passkey of this site. Never retried.",
  },
  passkey_rejected: {
    status: 422,
    meaning:
      "The site turned the passkey down: it did not take the one the service made, or refused the stored one's sign-in (the account no longer knows it); the message is the site's words where it gave some. Never retried.",
  },
  signup_rejected: {
    status: 422,
    meaning:
      "The target site refused the signup form (a field it wants, a password it does not take, an invalid invitation); the message is the site's words. Never retried.",
  },
  verification_pending: {
    status: 422,
    meaning:
      "The target site created the account and waits for its email to be confirmed, and no confirmation reached the service in the wait; the credential named by `credentialId` keeps the account and its password (status `pending_verification`). Never retried.",
  },
  no_stored_secret: {
    status: 422,
    meaning:
      "The credential never logged in successfully, so there is no stored secret to refresh with; log in with POST /v1/login.",
  },
  target_not_allowed: {
    status: 422,
    meaning: "The target address is not allowed (not http(s), or private, loopback, link-local or metadata).",
  },
  rate_limited: { status: 429, meaning: "Too many requests for this organization; retry after `Retry-After` seconds." },
  internal_error: { status: 500, meaning: "A fault of ours; the requestId identifies it in our logs." },
  method_not_supported: { status: 501, meaning: "The login or signup method is not available yet." },
  target_unreachable: { status: 502, meaning: "The target site could not be reached or answered with an error." },
  proxy_unreachable: {
    status: 502,
    meaning:
      "The organization's proxy the job left through could not be reached, or could not reach the site: the proxy's fault, not the site's. Nothing was sent to the site.",
  },
  proxy_auth_failed: {
    status: 502,
    meaning:
      "The organization's proxy refused the credentials in its URL (HTTP 407, or SOCKS5's sign-in). Nothing was sent to the site; fix the proxy (delete it and add it again). Never retried.",
  },
  region_unavailable: {
    status: 503,
    meaning:
      "No worker of the region the job asked for (`region`, or the credential's own) is running: none came within a short wait, or the region's last worker left while the job was queued. Nothing was sent to the site; retry later, or name another region.",
  },
  service_unavailable: { status: 503, meaning: "The service is starting, stopping or lost its queue; retry later." },
  timeout: {
    status: 504,
    meaning:
      "The login did not finish within the service's time limit, or no code or link arrived while it waited; the message names the step.",
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes a login or signup job can end with; they are what the worker records and the gateway answers. */
export const LOGIN_FAILURE_CODES = [
  "invalid_credentials",
  "form_not_found",
  "form_ambiguous",
  "captcha_blocked",
  "account_locked",
  "login_blocked",
  "mfa_required",
  "input_timeout",
  "handoff_interrupted",
  "verification_failed",
  "provider_blocked",
  "consent_denied",
  "account_not_linked",
  "login_unconfirmed",
  "passkey_not_offered",
  "passkey_rejected",
  "account_exists",
  "signup_rejected",
  "verification_pending",
  "target_not_allowed",
  "target_unreachable",
  "proxy_unreachable",
  "proxy_auth_failed",
  "region_unavailable",
  "timeout",
  "internal_error",
] as const satisfies readonly ErrorCode[];
export type LoginFailureCode = (typeof LOGIN_FAILURE_CODES)[number];

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

export interface FieldError {
  /** JSON pointer into the request body, e.g. `/cred/password`. */
  field: string;
  message: string;
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    requestId: string;
    details?: FieldError[];
    /** A signup that failed after its form was sent: the stored credential that keeps the account's password. */
    credentialId?: string;
  };
}
