"""What a browser call returns: the API's body as a dict, with how it was answered beside it."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional


class Session(Dict[str, Any]):
    """The session body (`cookies`, `origins`, `storageState`, and for signup/refresh `credentialId`, ...).

    It is a plain dict to read and serialise; the attributes say how the answer came: `job_id` (the
    browser job, when one ran), `cache` (`"hit"` when no browser ran), `replayed` (the answer of an earlier
    request with the same Idempotency-Key), `request_id`, `status` (200/201, or 202 when it came from a job).
    """

    job_id: Optional[str]
    cache: Optional[str]
    replayed: bool
    request_id: Optional[str]
    status: int

    def __init__(
        self,
        body: Mapping[str, Any],
        *,
        status: int,
        headers: Optional[Mapping[str, str]] = None,
        job_id: Optional[str] = None,
    ) -> None:
        super().__init__(body)
        lower = {k.lower(): v for k, v in (headers or {}).items()}
        self.status = status
        self.job_id = job_id or lower.get("x-job-id")
        self.cache = lower.get("x-auth-cache")
        self.replayed = (lower.get("idempotent-replayed") or "").lower() == "true"
        self.request_id = lower.get("x-request-id")
