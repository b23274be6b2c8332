"""Python client of authsvc: log in to websites with a real browser, hand the session to an agent.

    from authsvc import Client
    session = Client("http://127.0.0.1:8080", "pk_...").login(
        domain="https://app.example.com/login", login_method="password",
        cred={"username": "ada", "password": "..."})
"""

from __future__ import annotations

from .answers import Session
from .api_types import (
    LoginCred,
    LoginMethod,
    LoginRequest,
    RefreshRequest,
    SignupCred,
    SignupMethod,
    SignupRequest,
    VerifyRequest,
)
from .client import Client
from .errors import (
    AuthenticationError,
    AuthsvcError,
    ConflictError,
    ConnectionFailedError,
    IdempotencyMismatchError,
    InvalidRequestError,
    JobWaitTimeout,
    LoginFailedError,
    NotFoundError,
    RateLimitedError,
    ServiceUnavailableError,
    WebhookSignatureError,
)
from .sessions import (
    cdp_set_cookies_params,
    cookie_header,
    storage_state,
    to_cdp_cookies,
    to_cookiejar,
    to_netscape_cookies,
    to_puppeteer_cookies,
    write_netscape_cookies,
    write_storage_state,
)
from .webhooks import verify_webhook

__version__ = "0.1.0"

__all__ = [
    "AuthenticationError",
    "AuthsvcError",
    "Client",
    "ConflictError",
    "ConnectionFailedError",
    "IdempotencyMismatchError",
    "InvalidRequestError",
    "JobWaitTimeout",
    "LoginCred",
    "LoginFailedError",
    "LoginMethod",
    "LoginRequest",
    "NotFoundError",
    "RateLimitedError",
    "RefreshRequest",
    "ServiceUnavailableError",
    "Session",
    "SignupCred",
    "SignupMethod",
    "SignupRequest",
    "VerifyRequest",
    "WebhookSignatureError",
    "cdp_set_cookies_params",
    "cookie_header",
    "storage_state",
    "to_cdp_cookies",
    "to_cookiejar",
    "to_netscape_cookies",
    "to_puppeteer_cookies",
    "verify_webhook",
    "write_netscape_cookies",
    "write_storage_state",
]
