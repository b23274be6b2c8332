"""`Client`: one object per API key, with the browser calls (login, signup, refresh) and the resources."""

from __future__ import annotations

import re
import uuid
from typing import Any, Callable, Dict, Mapping, Optional, Union

from .answers import Session
from .api_types import LoginCred, LoginMethod, LoginRequest, RefreshRequest, SignupCred, SignupMethod, SignupRequest
from .jobs import Jobs, NeedsInputCallback, ProgressCallback, result_of
from .resources import Credentials, Mailboxes, PhoneNumbers, Proxies, Webhooks
from .transport import Transport

Scalar = Union[str, int, float, bool]
# Seconds kept between the wait we ask the server for and our own read timeout, so a slow login comes back
# as a 202 we follow rather than as a socket timeout.
WAIT_MARGIN_S = 5


class Client:
    """A client of the authsvc API.

    `base_url` is the service's address (`http://127.0.0.1:8080`; a trailing `/v1` is accepted). `timeout`
    bounds each HTTP request in seconds; `max_retries` is how often a request is repeated after a network
    fault or a 429/503 (only requests that are safe to repeat: reads, deletes and POSTs sent with an
    Idempotency-Key, which every call here sends).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 60.0,
        max_retries: int = 3,
        sleep: Optional[Callable[[float], None]] = None,
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ValueError("base_url must be an http(s) URL, e.g. http://127.0.0.1:8080")
        extra = {"sleep": sleep} if sleep is not None else {}
        self._transport = Transport(base_url, api_key, timeout=timeout, max_retries=max_retries, **extra)
        self.jobs = Jobs(self._transport, **extra)
        self.credentials = Credentials(self._transport, self._browser_call)
        self.mailboxes = Mailboxes(self._transport)
        self.phone_numbers = PhoneNumbers(self._transport)
        self.webhooks = Webhooks(self._transport)
        self.proxies = Proxies(self._transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    def login(
        self,
        *,
        domain: str,
        cred: LoginCred,
        login_method: LoginMethod = "password",
        use_cache: Optional[bool] = None,
        collection_id: Optional[str] = None,
        additional_fields: Optional[Mapping[str, Scalar]] = None,
        idempotency_key: Optional[str] = None,
        wait: Optional[int] = None,
        respond_async: bool = False,
        on_progress: Optional[ProgressCallback] = None,
        allow_handoff: Optional[bool] = None,
        on_needs_input: Optional[NeedsInputCallback] = None,
        proxy: Optional[str] = None,
        proxy_pool: Optional[str] = None,
        region: Optional[str] = None,
        **fields: Any,
    ) -> Session:
        """Logs in at `domain` (the login page's URL) and returns the session: `cookies`, `origins`, `storageState`.
        With `allow_handoff=True` a step only a person can answer waits for one: `on_needs_input(input, job_id)`.
        `proxy` (an id) or `proxy_pool` (a label): the organization's proxy to leave through; the credential keeps it.
        `region`: run on a worker of that region only; the credential keeps it."""
        body = compact(
            {
                "domain": domain,
                "login_method": login_method,
                "cred": dict(cred),
                "useCache": use_cache,
                "collectionId": collection_id,
                "additionalFields": dict(additional_fields) if additional_fields is not None else None,
                "allowHandoff": allow_handoff,
                "proxy": proxy,
                "proxyPool": proxy_pool,
                "region": region,
            }
        )
        body.update(more_fields(LoginRequest, fields, "login"))
        return self._browser_call("/v1/login", body, idempotency_key, wait, respond_async, on_progress, on_needs_input)

    def signup(
        self,
        *,
        domain: str,
        signup_method: SignupMethod = "email",
        cred: Optional[SignupCred] = None,
        allocate_mailbox: Optional[bool] = None,
        invite_token: Optional[str] = None,
        provider: Optional[str] = None,
        collection_id: Optional[str] = None,
        additional_fields: Optional[Mapping[str, Scalar]] = None,
        idempotency_key: Optional[str] = None,
        wait: Optional[int] = None,
        respond_async: bool = False,
        on_progress: Optional[ProgressCallback] = None,
        allow_handoff: Optional[bool] = None,
        on_needs_input: Optional[NeedsInputCallback] = None,
        region: Optional[str] = None,
        create_passkey: Optional[bool] = None,
        **fields: Any,
    ) -> Session:
        """Creates an account at `domain` (the signup page) and returns its session with `credentialId` and `account`.
        With `allow_handoff`, a step only a person can do (a CAPTCHA on the form) waits for them. With
        `create_passkey`, a passkey is added where the site offers one once the account signed in (`passkey`)."""
        body = compact(
            {
                "signup_method": signup_method,
                "domain": domain,
                "cred": dict(cred) if cred is not None else None,
                "allocateMailbox": allocate_mailbox,
                "invite_token": invite_token,
                "provider": provider,
                "collectionId": collection_id,
                "additionalFields": dict(additional_fields) if additional_fields is not None else None,
                "allowHandoff": allow_handoff,
                "region": region,
                "createPasskey": create_passkey,
            }
        )
        body.update(more_fields(SignupRequest, fields, "signup"))
        return self._browser_call("/v1/signup", body, idempotency_key, wait, respond_async, on_progress, on_needs_input)

    def refresh(
        self,
        credential_id: Optional[str] = None,
        *,
        domain: Optional[str] = None,
        username: Optional[str] = None,
        collection_id: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        wait: Optional[int] = None,
        respond_async: bool = False,
        on_progress: Optional[ProgressCallback] = None,
        allow_handoff: Optional[bool] = None,
        on_needs_input: Optional[NeedsInputCallback] = None,
        region: Optional[str] = None,
        **fields: Any,
    ) -> Session:
        """Logs in again with a stored credential (by id, or by login page and username) and replaces its cached session.
        `region` moves the credential to that region's workers (it keeps its own otherwise)."""
        body = compact(
            {"credentialId": credential_id, "domain": domain, "username": username, "collectionId": collection_id, "allowHandoff": allow_handoff, "region": region}
        )
        body.update(more_fields(RefreshRequest, fields, "refresh"))
        return self._browser_call("/v1/refresh", body, idempotency_key, wait, respond_async, on_progress, on_needs_input)

    def _browser_call(
        self,
        path: str,
        body: Dict[str, Any],
        idempotency_key: Optional[str],
        wait: Optional[int],
        respond_async: bool,
        on_progress: Optional[ProgressCallback],
        on_needs_input: Optional[NeedsInputCallback] = None,
    ) -> Session:
        """POSTs a request that runs a browser job; a 202 is followed to the job's end, so the caller gets
        the session (or the job's error raised) exactly as a synchronous answer would have given it."""
        # One key per logical call, the same on every retry: the service then never runs the job twice.
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        if respond_async:
            headers["Prefer"] = "respond-async"
        else:
            seconds = wait if wait is not None else max(1, int(self._transport.timeout) - WAIT_MARGIN_S)
            headers["Prefer"] = f"wait={max(0, int(seconds))}"
        answer = self._transport.request("POST", path, body=body, headers=headers)
        body = answer.json_object()
        if answer.status != 202:
            return Session(body, status=answer.status, headers=answer.headers)
        job_id = str(body["jobId"])
        job = self.jobs.wait(job_id, on_progress=on_progress, on_needs_input=on_needs_input)
        return Session(result_of(job), status=202, headers=answer.headers, job_id=job_id)


def compact(body: Dict[str, Any]) -> Dict[str, Any]:
    """The body without the fields the caller left out (None), so the API applies its defaults."""
    return {k: v for k, v in body.items() if v is not None}


def more_fields(request: Any, fields: Mapping[str, Any], method: str) -> Dict[str, Any]:
    """Fields of `request` (a TypedDict of api_types, generated from the service's schemas) given by their
    snake_case names, beyond the method's own keyword arguments: a field the service gained is sent without
    a new client. A name the request does not have is a TypeError, as any unknown keyword argument is."""
    keys = set(request.__required_keys__) | set(request.__optional_keys__)
    body: Dict[str, Any] = {}
    for name, value in fields.items():
        key = name if name in keys else re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), name)
        if key not in keys:
            raise TypeError(f"{method}() got an unexpected keyword argument {name!r}")
        if value is not None:
            body[key] = value
    return body
