"""The API's failures as exceptions: `.code` is the API's stable error code, the class says how to react."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Type

# HTTP status of every API error code (packages/contracts/src/error-codes.ts). A job's failure carries only
# its code; this gives it the status the synchronous answer would have had. A unit test keeps it in step.
ERROR_STATUS: Dict[str, int] = {
    "invalid_request": 400,
    "invalid_json": 400,
    "unauthorized": 401,
    "not_found": 404,
    "conflict": 409,
    "not_waiting_for_input": 409,
    "account_exists": 409,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "idempotency_mismatch": 422,
    "invalid_credentials": 422,
    "form_not_found": 422,
    "form_ambiguous": 422,
    "captcha_blocked": 422,
    "account_locked": 422,
    "mfa_required": 422,
    "input_timeout": 422,
    "handoff_interrupted": 422,
    "verification_failed": 422,
    "provider_blocked": 422,
    "consent_denied": 422,
    "login_blocked": 422,
    "account_not_linked": 422,
    "login_unconfirmed": 422,
    "passkey_not_offered": 422,
    "passkey_rejected": 422,
    "signup_rejected": 422,
    "verification_pending": 422,
    "no_stored_secret": 422,
    "target_not_allowed": 422,
    "rate_limited": 429,
    "internal_error": 500,
    "method_not_supported": 501,
    "target_unreachable": 502,
    "proxy_unreachable": 502,
    "proxy_auth_failed": 502,
    "region_unavailable": 503,
    "service_unavailable": 503,
    "timeout": 504,
}


class AuthsvcError(Exception):
    """A failure answered by the API (or, for subclasses below, met on the way to it)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: Optional[int] = None,
        request_id: Optional[str] = None,
        details: Optional[List[Dict[str, Any]]] = None,
        credential_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        job_id: Optional[str] = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.request_id = request_id
        self.details = details
        self.credential_id = credential_id
        self.retry_after = retry_after
        self.job_id = job_id


class InvalidRequestError(AuthsvcError):
    """The request itself is wrong (`details` names each field); sending it again changes nothing."""


class AuthenticationError(AuthsvcError):
    """The API key is missing, unknown or revoked."""


class NotFoundError(AuthsvcError):
    """No such job, credential, mailbox or webhook for this organization."""


class ConflictError(AuthsvcError):
    """An address is taken, a credential is ambiguous, or an idempotent retry is still waiting for its job."""


class IdempotencyMismatchError(AuthsvcError):
    """The Idempotency-Key was used for another request in the last 24 hours: use a new key."""


class LoginFailedError(AuthsvcError):
    """The browser job ended without a session: the site's verdict (wrong password, MFA, captcha, ...).

    Codes like `invalid_credentials`, `account_locked` and `verification_failed` must not be retried blindly:
    the site counts every attempt.
    """


class RateLimitedError(AuthsvcError):
    """Too many requests for the organization; `retry_after` says when to come back."""


class ServiceUnavailableError(AuthsvcError):
    """The service is starting, stopping or lost its queue (or answered 5xx); try again later."""


class ConnectionFailedError(AuthsvcError):
    """The service could not be reached (or the connection broke) on every attempt; `status` is None."""


class JobWaitTimeout(AuthsvcError):
    """The job was still running when the caller's own wait ran out; `job_id` names it for later."""


class WebhookSignatureError(ValueError):
    """A webhook delivery whose signature is missing, malformed, wrong or too old: drop it."""


LOGIN_FAILURE_CODES = frozenset(
    {
        "invalid_credentials",
        "form_not_found",
        "form_ambiguous",
        "captcha_blocked",
        "account_locked",
        "mfa_required",
        "input_timeout",
        "handoff_interrupted",
        "verification_failed",
        "provider_blocked",
        "consent_denied",
        "login_blocked",
        "account_not_linked",
        "login_unconfirmed",
        "passkey_not_offered",
        "passkey_rejected",
        "account_exists",
        "signup_rejected",
        "verification_pending",
        "no_stored_secret",
        "target_not_allowed",
        "target_unreachable",
        "proxy_unreachable",
        "proxy_auth_failed",
        "region_unavailable",
        "timeout",
    }
)

_BY_CODE: Dict[str, Type[AuthsvcError]] = {
    "invalid_request": InvalidRequestError,
    "invalid_json": InvalidRequestError,
    "payload_too_large": InvalidRequestError,
    "unsupported_media_type": InvalidRequestError,
    "method_not_supported": InvalidRequestError,
    "unauthorized": AuthenticationError,
    "not_found": NotFoundError,
    "conflict": ConflictError,
    "not_waiting_for_input": ConflictError,
    "idempotency_mismatch": IdempotencyMismatchError,
    "rate_limited": RateLimitedError,
    "service_unavailable": ServiceUnavailableError,
    "internal_error": ServiceUnavailableError,
}


def error_class(code: str, status: Optional[int]) -> Type[AuthsvcError]:
    if code in _BY_CODE:
        return _BY_CODE[code]
    if code in LOGIN_FAILURE_CODES:
        return LoginFailedError
    if status is not None and status >= 500:
        return ServiceUnavailableError
    return AuthsvcError


def error_from_body(
    status: Optional[int],
    body: Any,
    *,
    request_id: Optional[str] = None,
    retry_after: Optional[float] = None,
    job_id: Optional[str] = None,
) -> AuthsvcError:
    """The exception for an error answer `{"error": {...}}`, or for a job's `error` object (status from its code)."""
    error: Mapping[str, Any] = {}
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        if isinstance(inner, Mapping):
            error = inner
    code = str(error.get("code") or ("internal_error" if (status or 500) >= 500 else "unexpected_response"))
    message = str(error.get("message") or f"the service answered HTTP {status} without an error body")
    if status is None:
        status = ERROR_STATUS.get(code)
    details = error.get("details")
    return error_class(code, status)(
        code,
        message,
        status=status,
        request_id=str(error.get("requestId") or request_id or "") or None,
        details=list(details) if isinstance(details, list) else None,
        credential_id=error.get("credentialId") if isinstance(error.get("credentialId"), str) else None,
        retry_after=retry_after,
        job_id=job_id,
    )
