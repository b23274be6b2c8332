import { ERROR_STATUS, isErrorCode, type ErrorCode } from "./generated/error-codes";
import type { FieldError, JobError } from "./types";

export interface AuthsvcErrorInit {
  code: ErrorCode;
  message: string;
  status: number;
  requestId?: string;
  details?: FieldError[];
  credentialId?: string;
  retryAfter?: number;
  jobId?: string;
}

/** The API said no: `code` is its stable error code, the one to branch on. */
export class AuthsvcError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly requestId: string | undefined;
  /** `invalid_request`: each field (a JSON pointer into the body) and what is wrong with it. */
  readonly details: FieldError[] | undefined;
  /** A signup that failed after its form was sent: the credential that keeps the account's password. */
  readonly credentialId: string | undefined;
  /** Seconds to wait before trying again, when the answer said so (`Retry-After`). */
  readonly retryAfter: number | undefined;
  /** The job that ended with this error, when one ran. */
  readonly jobId: string | undefined;

  constructor(init: AuthsvcErrorInit) {
    super(init.message);
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
    this.credentialId = init.credentialId;
    this.retryAfter = init.retryAfter;
    this.jobId = init.jobId;
  }
}

/** The request itself is wrong (body, parameter, size, media type); sending it again will not help. */
export class InvalidRequestError extends AuthsvcError {}
/** The API key is missing, unknown or revoked. */
export class UnauthorizedError extends AuthsvcError {}
/** No such resource for this organization. */
export class NotFoundError extends AuthsvcError {}
/** The resource is taken or ambiguous (`conflict`), or the site already has the account (`account_exists`). */
export class ConflictError extends AuthsvcError {}
/** The Idempotency-Key was used for another request: make a new key for a new request. */
export class IdempotencyMismatchError extends AuthsvcError {}
/**
 * The browser ran and the site did not end signed in: wrong password, locked account, a factor we could
 * not answer, a refused code, no form. Never worth an automatic retry (it could lock the account).
 */
export class LoginFailedError extends AuthsvcError {}
/** Too many requests for the organization; `retryAfter` says when the next one is let in. */
export class RateLimitedError extends AuthsvcError {}
/** The service or the target site failed or took too long; a later attempt may succeed. */
export class ServiceError extends AuthsvcError {}

/** The service could not be reached (or did not answer in time) even after the retries. */
export class NetworkError extends Error {
  /** Whether the last attempt ran out of `timeoutMs` rather than failing to connect. */
  readonly timedOut: boolean;
  constructor(message: string, options: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = "NetworkError";
    this.timedOut = options.timedOut ?? false;
  }
}

const CLASS_OF: Partial<Record<ErrorCode, new (init: AuthsvcErrorInit) => AuthsvcError>> = {
  invalid_request: InvalidRequestError,
  invalid_json: InvalidRequestError,
  payload_too_large: InvalidRequestError,
  unsupported_media_type: InvalidRequestError,
  unauthorized: UnauthorizedError,
  not_found: NotFoundError,
  conflict: ConflictError,
  account_exists: ConflictError,
  idempotency_mismatch: IdempotencyMismatchError,
  invalid_credentials: LoginFailedError,
  form_not_found: LoginFailedError,
  form_ambiguous: LoginFailedError,
  captcha_blocked: LoginFailedError,
  account_locked: LoginFailedError,
  mfa_required: LoginFailedError,
  verification_failed: LoginFailedError,
  provider_blocked: LoginFailedError,
  consent_denied: LoginFailedError,
  account_not_linked: LoginFailedError,
  login_unconfirmed: LoginFailedError,
  signup_rejected: LoginFailedError,
  verification_pending: LoginFailedError,
  rate_limited: RateLimitedError,
  internal_error: ServiceError,
  target_unreachable: ServiceError,
  service_unavailable: ServiceError,
  timeout: ServiceError,
};

/** The exception for an error code, of the narrowest class that has it. */
export function errorFor(init: AuthsvcErrorInit): AuthsvcError {
  const Class = CLASS_OF[init.code] ?? AuthsvcError;
  return new Class(init);
}

/** Reads an error answer. A body that is not the API's error shape (a proxy's page) still gives an error. */
export function errorFromResponse(status: number, headers: Headers, body: unknown): AuthsvcError {
  const e = (body as { error?: Record<string, unknown> } | null)?.error;
  const requestId =
    (typeof e?.requestId === "string" ? e.requestId : undefined) ?? headers.get("x-request-id") ?? undefined;
  const retryAfter = retryAfterSeconds(headers.get("retry-after"));
  if (e && isErrorCode(e.code)) {
    return errorFor({
      code: e.code,
      message: typeof e.message === "string" ? e.message : e.code,
      status,
      requestId,
      details: Array.isArray(e.details) ? (e.details as FieldError[]) : undefined,
      credentialId: typeof e.credentialId === "string" ? e.credentialId : undefined,
      retryAfter,
    });
  }
  return errorFor({
    code: fallbackCode(status),
    message: `HTTP ${status} without an API error body`,
    status,
    requestId,
    retryAfter,
  });
}

/** A failed job's error: the exception the synchronous answer would have raised. */
export function errorFromJob(jobId: string, error: JobError, requestId?: string): AuthsvcError {
  const code: ErrorCode = isErrorCode(error.code) ? error.code : "internal_error";
  return errorFor({
    code,
    message: error.message,
    status: ERROR_STATUS[code],
    requestId,
    credentialId: error.credentialId,
    jobId,
  });
}

function fallbackCode(status: number): ErrorCode {
  if (status === 429) return "rate_limited";
  if (status === 503) return "service_unavailable";
  if (status === 504) return "timeout";
  if (status === 401) return "unauthorized";
  if (status === 404) return "not_found";
  if (status >= 500) return "internal_error";
  return "invalid_request";
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
