"""Browser jobs: read one, follow its progress (Server-Sent Events), wait for its end."""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from typing import Any, Callable, Dict, Iterator, List, Optional

from .errors import ConnectionFailedError, InvalidRequestError, JobWaitTimeout, NotFoundError, error_from_body
from .sse import read_events
from .transport import Transport, backoff_delay

JobEvent = Dict[str, Any]
ProgressCallback = Callable[[JobEvent], None]
# Told what a job waits for a person to answer (its `input`) and the job's id; answer with `jobs.input`.
NeedsInputCallback = Callable[[Dict[str, Any], str], None]

FINAL_EVENTS = frozenset({"succeeded", "failed"})
FINAL_STATUSES = frozenset({"succeeded", "failed"})
POLL_CAP_S = 2.0


def job_path(job_id: str) -> str:
    return "/v1/jobs/" + urllib.parse.quote(job_id, safe="")


def result_of(job: Dict[str, Any]) -> Dict[str, Any]:
    """A finished job's answer: its result, or the error the synchronous request would have raised."""
    result = job.get("result")
    if job.get("status") == "succeeded" and isinstance(result, dict):
        return result
    raise error_from_body(None, {"error": job.get("error") or {}}, job_id=job.get("jobId"))


class Jobs:
    def __init__(self, transport: Transport, sleep: Callable[[float], None] = time.sleep) -> None:
        self._transport = transport
        self._sleep = sleep

    def get(self, job_id: str) -> Dict[str, Any]:
        """`{jobId, status, eventsUrl, result?, error?}` as the API answers it."""
        return self._transport.request("GET", job_path(job_id)).json_object()

    def input(self, job_id: str, code: Optional[str] = None, choice: Optional[str] = None, answer: Optional[str] = None) -> Dict[str, Any]:
        """Answers what a job in `needs_input` waits for (its `input`): a code, a choice, an answer, or nothing
        ("approved elsewhere: look again"). The job goes on with the same page; follow it with `wait`. A job that
        waits for nothing now raises ConflictError (`not_waiting_for_input`)."""
        given = {k: v for k, v in (("code", code), ("choice", choice), ("answer", answer)) if v is not None}
        return self._transport.request("POST", job_path(job_id) + "/input", body=given).json_object()

    def events(self, job_id: str, last_event_id: Optional[str] = None) -> Iterator[JobEvent]:
        """The job's events as dicts (the API's JobEvent plus `id`, the position to resume after), from the
        first (or after `last_event_id`) to `succeeded`/`failed`. A dropped stream is reopened with
        Last-Event-ID, so no event is lost or repeated."""
        for event in self._follow(job_id, last_event_id):
            if event is not None:
                yield event

    def wait(
        self,
        job_id: str,
        on_progress: Optional[ProgressCallback] = None,
        timeout: Optional[float] = None,
        on_needs_input: Optional[NeedsInputCallback] = None,
    ) -> Dict[str, Any]:
        """Follows the job to its end and returns its final resource (status `succeeded` or `failed`).

        Falls back to polling GET /v1/jobs/{id} when the event stream is not available. `timeout` (seconds)
        bounds the wait; past it JobWaitTimeout names the job, which goes on running. `on_needs_input` is
        called with the job's `input` and id each time it waits for a person (started with allowHandoff):
        answer with `input()`, or send the person `input["handoffUrl"]`; the wait goes on to the end.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        asked: List[str] = []

        def needs_input(question: Any) -> None:
            key = json.dumps(question, sort_keys=True)
            if on_needs_input is None or not isinstance(question, dict) or (asked and asked[-1] == key):
                return
            asked.append(key)
            on_needs_input(question, job_id)

        def check_deadline() -> None:
            if deadline is not None and time.monotonic() > deadline:
                raise JobWaitTimeout("job_wait_timeout", f"job {job_id} was still running after {timeout} s", job_id=job_id)

        try:
            for event in self._follow(job_id, None):
                check_deadline()
                if event is None:
                    continue
                if on_progress is not None:
                    on_progress(event)
                if event.get("type") == "needs_input":
                    needs_input(event.get("input"))
                if event.get("type") in FINAL_EVENTS:
                    break
        except (NotFoundError, ConnectionFailedError, InvalidRequestError):
            # No stream here (an older service, a proxy that drops it): polling reaches the same end.
            pass
        return self._poll_until_final(job_id, check_deadline, needs_input)

    def _poll_until_final(self, job_id: str, check_deadline: Callable[[], None], needs_input: Callable[[Any], None]) -> Dict[str, Any]:
        attempt = 0
        while True:
            job = self.get(job_id)
            if job.get("status") in FINAL_STATUSES:
                return job
            if job.get("status") == "needs_input":
                needs_input(job.get("input"))
            check_deadline()
            self._sleep(min(POLL_CAP_S, 0.25 * (2 ** attempt)))
            attempt += 1

    def _follow(self, job_id: str, last_event_id: Optional[str]) -> Iterator[Optional[JobEvent]]:
        """Events, and None for each keep-alive, across reconnections; ends after the final event."""
        faults = 0
        while True:
            headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
            if last_event_id:
                headers["Last-Event-ID"] = last_event_id
            try:
                stream = self._transport.open_stream(job_path(job_id) + "/events", headers)
                with stream:
                    for sse in read_events(stream):
                        if sse is None:
                            yield None
                            continue
                        if sse.id:
                            last_event_id = sse.id
                        event = parse_event(sse.data, sse.id)
                        if event is None:
                            continue
                        faults = 0
                        yield event
                        if event.get("type") in FINAL_EVENTS:
                            return
            except (OSError, http.client.HTTPException, UnicodeDecodeError):
                pass
            # The stream ended (or broke) before the job did: reopen it after the last event seen.
            faults += 1
            if faults > self._transport.max_retries:
                raise ConnectionFailedError("connection_failed", f"the event stream of job {job_id} kept breaking off")
            self._sleep(backoff_delay(faults - 1))


def parse_event(data: str, event_id: Optional[str]) -> Optional[JobEvent]:
    try:
        event = json.loads(data)
    except ValueError:
        return None
    if not isinstance(event, dict):
        return None
    event["id"] = event_id
    return event
