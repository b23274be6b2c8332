/**
 * Every code the API answers with, and its HTTP status: a failed job's error carries only the code, and a
 * caller of the SDK gets the same exception from it as from the synchronous answer. Checked against
 * @authsvc/contracts' ERROR_CODES by contracts-check.ts and error-codes.test.ts.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  account_exists: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_mismatch: 422,
  invalid_credentials: 422,
  form_not_found: 422,
  form_ambiguous: 422,
  captcha_blocked: 422,
  account_locked: 422,
  mfa_required: 422,
  input_timeout: 422,
  handoff_interrupted: 422,
  not_waiting_for_input: 409,
  verification_failed: 422,
  provider_blocked: 422,
  login_blocked: 422,
  consent_denied: 422,
  account_not_linked: 422,
  login_unconfirmed: 422,
  passkey_not_offered: 422,
  passkey_rejected: 422,
  signup_rejected: 422,
  verification_pending: 422,
  no_stored_secret: 422,
  target_not_allowed: 422,
  rate_limited: 429,
  internal_error: 500,
  method_not_supported: 501,
  target_unreachable: 502,
  proxy_unreachable: 502,
  proxy_auth_failed: 502,
  region_unavailable: 503,
  service_unavailable: 503,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.prototype.hasOwnProperty.call(ERROR_STATUS, code);
}
