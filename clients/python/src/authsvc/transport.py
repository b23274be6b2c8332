"""HTTP to the service: JSON in and out, the API key, and retries that can never run a browser twice.

A request is retried after a network fault or a 429/503 answer only when repeating it is harmless: GET and
DELETE always, a POST only when it carries an Idempotency-Key (the caller's client generates one per logical
call and sends the same one on every attempt, so the service answers a repeat with the first request's
answer, or joins its job). Waits honour Retry-After, else back off exponentially with jitter.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import random
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, List, Mapping, Optional, TypeVar, cast

from .errors import AuthsvcError, ConnectionFailedError, error_from_body

USER_AGENT = "authsvc-python/0.1.0"
# A Retry-After longer than this is not slept through: the caller gets the error and decides.
MAX_RETRY_AFTER_S = 60.0
BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 8.0
RETRY_STATUSES = frozenset({429, 503})
T = TypeVar("T")


class RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """The API never redirects; following one would carry the API key (and a POST's body) elsewhere."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Response:
    """A successful answer: status, headers (names in lower case) and the JSON body (None when empty)."""

    def __init__(self, status: int, headers: Mapping[str, str], body: Any) -> None:
        self.status = status
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.body = body

    def json_object(self) -> Dict[str, Any]:
        """The body, which must be a JSON object (a proxy's HTML page or an empty body is a clear error)."""
        if not isinstance(self.body, dict):
            raise AuthsvcError("unexpected_response", f"expected a JSON object, got {type(self.body).__name__}", status=self.status, request_id=self.headers.get("x-request-id"))
        return self.body

    def json_list(self, field: str) -> List[Dict[str, Any]]:
        """The list in one field of the body (`{"webhooks": [...]}`)."""
        items = self.json_object().get(field)
        if not isinstance(items, list):
            raise AuthsvcError("unexpected_response", f"expected a list in {field!r}", status=self.status, request_id=self.headers.get("x-request-id"))
        return items


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, float(when.timestamp()) - (time.time() if now is None else now))


def backoff_delay(attempt: int, rand: Callable[[], float] = random.random) -> float:
    """Exponential backoff with jitter: half fixed, half random, so a fleet of clients does not retry in step."""
    ceiling = min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2.0 ** attempt)
    return ceiling / 2 + rand() * ceiling / 2


class Transport:
    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float,
        max_retries: int,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        base = base_url.rstrip("/")
        # Paths the API hands out (Location, eventsUrl) start with /v1; accept a base that already ends there.
        if base.endswith("/v1"):
            base = base[: -len("/v1")]
        self.base_url = base
        self._api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self._sleep = sleep
        self._opener = urllib.request.build_opener(RefuseRedirects())

    def url(self, path: str) -> str:
        return path if path.startswith(("http://", "https://")) else self.base_url + path

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        headers: Optional[Dict[str, str]] = None,
        query: Optional[Dict[str, Any]] = None,
    ) -> Response:
        """Sends one logical request (retrying when harmless) and returns its JSON answer, or raises AuthsvcError."""

        def once() -> Response:
            raw = self._open(method, path, body, headers, query)
            with raw:
                data = raw.read()
                answered = dict(raw.headers.items())
            try:
                return Response(raw.status, answered, json.loads(data) if data.strip() else None)
            except ValueError:
                raise AuthsvcError("unexpected_response", f"the answer to {method} {path_of(path)} is not JSON", status=raw.status, request_id=raw.headers.get("X-Request-Id")) from None

        return self._with_retries(method, path, headers, once)

    def open_stream(self, path: str, headers: Optional[Dict[str, str]] = None) -> http.client.HTTPResponse:
        """Opens a GET whose body the caller reads as it arrives (Server-Sent Events); the caller closes it."""
        # The server sends a keep-alive comment every 15 s, so a read may wait that long without a fault.
        read_timeout = max(self.timeout, 30.0)
        return self._with_retries("GET", path, headers, lambda: self._open("GET", path, None, headers, None, read_timeout))

    def _with_retries(self, method: str, path: str, headers: Optional[Dict[str, str]], once: Callable[[], T]) -> T:
        keyed = any(k.lower() == "idempotency-key" for k in (headers or {}))
        repeatable = method in ("GET", "HEAD", "DELETE") or keyed
        attempt = 0
        while True:
            try:
                return once()
            except AuthsvcError as err:
                wait = self._retry_wait(err, attempt, repeatable, keyed)
                if wait is None:
                    raise
            except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
                if not repeatable or attempt >= self.max_retries:
                    raise ConnectionFailedError(
                        "connection_failed",
                        f"{method} {path_of(path)} failed after {attempt + 1} attempt(s): {describe_fault(err)}",
                    ) from None
                wait = backoff_delay(attempt)
            self._sleep(wait)
            attempt += 1

    def _retry_wait(self, err: AuthsvcError, attempt: int, repeatable: bool, keyed: bool) -> Optional[float]:
        if not repeatable or attempt >= self.max_retries:
            return None
        # 409 with Retry-After: an identical keyed request has not started its job yet; the retry joins it.
        retry_conflict = keyed and err.status == 409 and err.retry_after is not None
        if err.status not in RETRY_STATUSES and not retry_conflict:
            return None
        if err.retry_after is not None:
            return err.retry_after if err.retry_after <= MAX_RETRY_AFTER_S else None
        return backoff_delay(attempt)

    def _open(
        self,
        method: str,
        path: str,
        body: Any,
        headers: Optional[Dict[str, str]],
        query: Optional[Dict[str, Any]],
        timeout: Optional[float] = None,
    ) -> http.client.HTTPResponse:
        url = self.url(path)
        if query:
            pairs = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in query.items() if v is not None}
            if pairs:
                url += ("&" if "?" in url else "?") + urllib.parse.urlencode(pairs)
        all_headers = {"Authorization": f"Bearer {self._api_key}", "User-Agent": USER_AGENT, "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode("utf-8")
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
        try:
            return cast(http.client.HTTPResponse, self._opener.open(req, timeout=timeout or self.timeout))
        except urllib.error.HTTPError as answer:
            raise self._error_of(answer) from None

    @staticmethod
    def _error_of(answer: urllib.error.HTTPError) -> AuthsvcError:
        try:
            text = answer.read()
            parsed: Any = json.loads(text) if text.strip() else None
        except (ValueError, OSError, http.client.HTTPException):
            parsed = None
        finally:
            answer.close()
        return error_from_body(
            answer.code,
            parsed,
            request_id=answer.headers.get("X-Request-Id"),
            retry_after=parse_retry_after(answer.headers.get("Retry-After")),
        )


def path_of(url: str) -> str:
    return url.split("?", 1)[0]


def describe_fault(err: BaseException) -> str:
    """The fault's kind and reason, never the request (its URL or body could carry a secret)."""
    reason = getattr(err, "reason", None) or err
    return f"{type(err).__name__}: {reason}"
