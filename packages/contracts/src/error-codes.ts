/**
 * Every failure the API answers with, and what is true of it: the one table the rest derives from (the
 * OpenAPI document's error answers, the worker's retry and credential rules in job-failure-codes.ts, and
 * the generated copies: the SDK's and the Python client's error tables, docs/errors.md). What each code
 * says is in error-descriptions.ts. The codes are stable: clients branch on them.
 *
 * - `status`: the HTTP status it answers with (a failed job's error has the same).
 * - `retryable`: a transient fault, met before anything was sent: the queue may run the job again.
 * - `credentialFailure`: the stored credential no longer works (rather than the site or we had a bad
 *   moment); a credential that worked before and now ends so raises `credential.failed`.
 * - `endpoints`: the browser jobs that can end with it: `login` (POST /login, /refresh,
 *   /credentials/{id}/verify and /credentials/{id}/passkeys run a login) and `signup` (POST /signup).
 */
const NONE = [] as const;
const LOGIN = ["login"] as const;
const SIGNUP = ["signup"] as const;
const BOTH = ["login", "signup"] as const;

export type JobEndpoint = (typeof BOTH)[number];

export interface ErrorFacts {
  status: number;
  retryable: boolean;
  credentialFailure: boolean;
  endpoints: readonly JobEndpoint[];
}

export const ERROR_CODES = {
  invalid_request: { status: 400, retryable: false, credentialFailure: false, endpoints: NONE },
  invalid_json: { status: 400, retryable: false, credentialFailure: false, endpoints: NONE },
  unauthorized: { status: 401, retryable: false, credentialFailure: false, endpoints: NONE },
  not_found: { status: 404, retryable: false, credentialFailure: false, endpoints: NONE },
  conflict: { status: 409, retryable: false, credentialFailure: false, endpoints: NONE },
  account_exists: { status: 409, retryable: false, credentialFailure: false, endpoints: SIGNUP },
  payload_too_large: { status: 413, retryable: false, credentialFailure: false, endpoints: NONE },
  unsupported_media_type: { status: 415, retryable: false, credentialFailure: false, endpoints: NONE },
  idempotency_mismatch: { status: 422, retryable: false, credentialFailure: false, endpoints: NONE },
  invalid_credentials: { status: 422, retryable: false, credentialFailure: true, endpoints: LOGIN },
  form_not_found: { status: 422, retryable: false, credentialFailure: false, endpoints: BOTH },
  form_ambiguous: { status: 422, retryable: false, credentialFailure: false, endpoints: LOGIN },
  captcha_blocked: { status: 422, retryable: false, credentialFailure: false, endpoints: BOTH },
  login_blocked: { status: 422, retryable: false, credentialFailure: false, endpoints: LOGIN },
  account_locked: { status: 422, retryable: false, credentialFailure: true, endpoints: LOGIN },
  mfa_required: { status: 422, retryable: false, credentialFailure: true, endpoints: BOTH },
  input_timeout: { status: 422, retryable: false, credentialFailure: false, endpoints: LOGIN },
  handoff_interrupted: { status: 422, retryable: false, credentialFailure: false, endpoints: LOGIN },
  not_waiting_for_input: { status: 409, retryable: false, credentialFailure: false, endpoints: NONE },
  verification_failed: { status: 422, retryable: false, credentialFailure: true, endpoints: BOTH },
  provider_blocked: { status: 422, retryable: false, credentialFailure: false, endpoints: BOTH },
  consent_denied: { status: 422, retryable: false, credentialFailure: false, endpoints: BOTH },
  account_not_linked: { status: 422, retryable: false, credentialFailure: false, endpoints: LOGIN },
  login_unconfirmed: { status: 422, retryable: false, credentialFailure: false, endpoints: BOTH },
  passkey_not_offered: { status: 422, retryable: false, credentialFailure: false, endpoints: LOGIN },
  passkey_rejected: { status: 422, retryable: false, credentialFailure: true, endpoints: LOGIN },
  signup_rejected: { status: 422, retryable: false, credentialFailure: false, endpoints: SIGNUP },
  verification_pending: { status: 422, retryable: false, credentialFailure: false, endpoints: SIGNUP },
  no_stored_secret: { status: 422, retryable: false, credentialFailure: false, endpoints: NONE },
  target_not_allowed: { status: 422, retryable: false, credentialFailure: false, endpoints: BOTH },
  rate_limited: { status: 429, retryable: false, credentialFailure: false, endpoints: NONE },
  internal_error: { status: 500, retryable: true, credentialFailure: false, endpoints: BOTH },
  method_not_supported: { status: 501, retryable: false, credentialFailure: false, endpoints: NONE },
  target_unreachable: { status: 502, retryable: true, credentialFailure: false, endpoints: BOTH },
  proxy_unreachable: { status: 502, retryable: true, credentialFailure: false, endpoints: LOGIN },
  proxy_auth_failed: { status: 502, retryable: false, credentialFailure: false, endpoints: LOGIN },
  region_unavailable: { status: 503, retryable: false, credentialFailure: false, endpoints: BOTH },
  service_unavailable: { status: 503, retryable: false, credentialFailure: false, endpoints: NONE },
  timeout: { status: 504, retryable: true, credentialFailure: false, endpoints: BOTH },
} as const satisfies Record<string, ErrorFacts>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

/**
 * A code a job's record or event keeps as text, as the API tells it: one of ours when it was written; one
 * since retired (or none) is `internal_error`, never a code a client's switch does not know.
 */
export function storedErrorCode(code: string | null | undefined): ErrorCode {
  return code && isErrorCode(code) ? code : "internal_error";
}
