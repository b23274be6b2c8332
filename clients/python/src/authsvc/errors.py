"""The API's failures as exceptions: `.code` is the API's stable error code, the class says how to react."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Type

from .error_codes import ERROR_STATUS, JOB_FAILURE_CODES


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


# What a job can end with, and `no_stored_secret`: a refresh that had nothing to log in with failed as a login.
LOGIN_FAILURE_CODES = JOB_FAILURE_CODES | {"no_stored_secret"}

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
