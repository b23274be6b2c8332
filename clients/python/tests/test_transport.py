from __future__ import annotations

import json
import unittest
from typing import Any, Dict, List, Tuple

from authsvc import AuthsvcError, Client, ConflictError, JobWaitTimeout, Session, ConnectionFailedError, InvalidRequestError, LoginFailedError, RateLimitedError
from authsvc.transport import BACKOFF_CAP_S, backoff_delay, parse_retry_after

from .scripted_server import ScriptedServer, header, recorder, sse_answer

SESSION: Dict[str, Any] = {"cookies": [], "origins": ["https://app.example"], "storageState": {"cookies": [], "origins": []}}


class RetryTest(unittest.TestCase):
    def setUp(self) -> None:
        self.server = ScriptedServer()
        self.waits: List[float] = []
        self.client = Client(self.server.url, "pk_test", timeout=5, max_retries=3, sleep=recorder(self.waits))

    def tearDown(self) -> None:
        self.server.close()

    def login(self, **extra: Any) -> Session:
        return self.client.login(domain="https://app.example/login", cred={"username": "ada", "password": "pw"}, **extra)  # type: ignore[arg-type]

    def test_a_login_after_a_503_and_a_dropped_connection_is_sent_again_with_the_same_idempotency_key(self) -> None:
        self.server.on("POST", "/v1/login", (503, {"Retry-After": "2"}, {"error": {"code": "service_unavailable", "message": "x"}}), "drop", (200, {"Idempotent-Replayed": "true"}, SESSION))
        session = self.login()
        self.assertEqual(session["origins"], ["https://app.example"])
        self.assertTrue(session.replayed)
        sent = self.server.requests_to("POST", "/v1/login")
        keys = {header(s, "Idempotency-Key") for s in sent}
        self.assertEqual(len(sent), 3)
        self.assertEqual(len(keys), 1)
        self.assertRegex(keys.pop() or "", r"^[0-9a-f-]{36}$")
        self.assertEqual(self.waits[0], 2.0)  # Retry-After honoured
        self.assertLessEqual(self.waits[1], BACKOFF_CAP_S)
        body = json.loads(sent[0]["body"])
        self.assertEqual(body, {"domain": "https://app.example/login", "login_method": "password", "cred": {"username": "ada", "password": "pw"}})
        self.assertEqual(header(sent[0], "Authorization"), "Bearer pk_test")

    def test_each_logical_call_gets_its_own_key_and_a_given_key_is_sent_as_is(self) -> None:
        self.server.on("POST", "/v1/login", (200, {}, SESSION))
        self.login()
        self.login()
        self.login(idempotency_key="agent-run-7", use_cache=False, collection_id="team", additional_fields={"workspace": "acme"})
        sent = self.server.requests_to("POST", "/v1/login")
        keys = [header(s, "Idempotency-Key") for s in sent]
        self.assertEqual(len(set(keys)), 3)
        self.assertEqual(keys[2], "agent-run-7")
        self.assertEqual(json.loads(sent[2]["body"])["useCache"], False)
        self.assertEqual(json.loads(sent[2]["body"])["collectionId"], "team")
        self.assertEqual(json.loads(sent[2]["body"])["additionalFields"], {"workspace": "acme"})

    def test_gives_up_after_max_retries_with_a_network_error_that_names_no_secret(self) -> None:
        self.server.on("POST", "/v1/login", "drop")
        with self.assertRaises(ConnectionFailedError) as caught:
            self.login()
        self.assertEqual(len(self.server.requests_to("POST", "/v1/login")), 4)
        self.assertIsNone(caught.exception.status)
        self.assertNotIn("pw", str(caught.exception))
        self.assertNotIn("pk_test", str(caught.exception))

    def test_a_long_retry_after_is_not_slept_through_but_raised(self) -> None:
        self.server.on("GET", "/v1/webhooks", (429, {"Retry-After": "3600", "X-Request-Id": "req_1"}, {"error": {"code": "rate_limited", "message": "slow down", "requestId": "req_1"}}))
        with self.assertRaises(RateLimitedError) as caught:
            self.client.webhooks.list()
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.retry_after, caught.exception.request_id), ("rate_limited", 429, 3600.0, "req_1"))
        self.assertEqual(self.waits, [])

    def test_errors_that_a_repeat_would_not_change_are_raised_at_once_with_their_fields(self) -> None:
        self.server.on("POST", "/v1/login", (400, {}, {"error": {"code": "invalid_request", "message": "bad", "requestId": "req_2", "details": [{"field": "/cred", "message": "is required"}]}}))
        with self.assertRaises(InvalidRequestError) as caught:
            self.login()
        self.assertEqual(caught.exception.details, [{"field": "/cred", "message": "is required"}])
        self.assertEqual(len(self.server.requests_to("POST", "/v1/login")), 1)

    def test_a_keyed_retry_waiting_for_its_job_409_with_retry_after_is_retried(self) -> None:
        self.server.on("POST", "/v1/login", (409, {"Retry-After": "1"}, {"error": {"code": "conflict", "message": "still starting"}}), (200, {}, SESSION))
        self.login()
        self.assertEqual(self.waits, [1.0])

    def test_a_redirect_is_not_followed_so_the_key_goes_nowhere_else(self) -> None:
        self.server.on("GET", "/v1/webhooks", (302, {"Location": "http://198.51.100.7/steal"}, b""))
        with self.assertRaises(AuthsvcError) as caught:
            self.client.webhooks.list()
        self.assertEqual((caught.exception.code, caught.exception.status), ("unexpected_response", 302))

    def test_an_answer_that_is_not_json_is_a_clear_error(self) -> None:
        self.server.on("GET", "/v1/webhooks", (200, {"Content-Type": "text/html"}, b"<html>proxy</html>"))
        with self.assertRaises(AuthsvcError) as caught:
            self.client.webhooks.list()
        self.assertEqual((caught.exception.code, caught.exception.status), ("unexpected_response", 200))
        self.assertEqual(self.waits, [])


class FollowJobTest(unittest.TestCase):
    def setUp(self) -> None:
        self.server = ScriptedServer()
        self.client = Client(self.server.url + "/v1", "pk_test", timeout=5, max_retries=2, sleep=lambda s: None)
        accepted = {"jobId": "job_1", "status": "queued", "eventsUrl": "/v1/jobs/job_1/events"}
        self.server.on("POST", "/v1/login", (202, {"Location": "/v1/jobs/job_1", "X-Job-Id": "job_1"}, accepted))

    def tearDown(self) -> None:
        self.server.close()

    def test_follows_a_broken_event_stream_with_last_event_id_and_returns_the_jobs_session(self) -> None:
        at = "2026-01-01T00:00:00Z"
        first: List[Tuple[str, str, Dict[str, Any]]] = [("1-0", "queued", {"type": "queued", "jobId": "job_1", "at": at}), ("2-0", "started", {"type": "started", "jobId": "job_1", "at": at, "attempt": 1})]
        rest: List[Tuple[str, str, Dict[str, Any]]] = [("3-0", "custom_future_type", {"type": "custom_future_type", "jobId": "job_1", "at": at}), ("4-0", "succeeded", {"type": "succeeded", "jobId": "job_1", "at": at, "credentialId": "cred_1"})]
        self.server.on("GET", "/v1/jobs/job_1/events", sse_answer(first), sse_answer(rest))
        self.server.on("GET", "/v1/jobs/job_1", (200, {}, {"jobId": "job_1", "status": "succeeded", "result": SESSION}))
        seen: List[dict] = []
        session = self.client.login(domain="https://app.example/login", cred={"username": "a", "password": "b"}, respond_async=True, on_progress=seen.append)
        self.assertEqual([e["type"] for e in seen], ["queued", "started", "custom_future_type", "succeeded"])
        self.assertEqual(seen[1]["id"], "2-0")
        self.assertEqual((session.status, session.job_id, session["origins"]), (202, "job_1", ["https://app.example"]))
        streams = self.server.requests_to("GET", "/v1/jobs/job_1/events")
        self.assertEqual([header(s, "Last-Event-ID") for s in streams], [None, "2-0"])
        self.assertEqual(header(self.server.requests_to("POST", "/v1/login")[0], "Prefer"), "respond-async")

    def test_raises_the_jobs_error_with_the_status_the_synchronous_answer_would_have_had(self) -> None:
        at = "2026-01-01T00:00:00Z"
        error = {"code": "invalid_credentials", "message": "The site said: wrong password"}
        self.server.on("GET", "/v1/jobs/job_1/events", sse_answer([("1-0", "failed", {"type": "failed", "jobId": "job_1", "at": at, "error": error})]))
        self.server.on("GET", "/v1/jobs/job_1", (200, {}, {"jobId": "job_1", "status": "failed", "error": error}))
        with self.assertRaises(LoginFailedError) as caught:
            self.client.login(domain="https://app.example/login", cred={"username": "a", "password": "b"})
        self.assertEqual((caught.exception.code, caught.exception.status, caught.exception.job_id), ("invalid_credentials", 422, "job_1"))

    def test_polls_the_job_when_there_is_no_event_stream(self) -> None:
        self.server.on("GET", "/v1/jobs/job_1", (200, {}, {"jobId": "job_1", "status": "running"}), (200, {}, {"jobId": "job_1", "status": "succeeded", "result": SESSION}))
        session = self.client.login(domain="https://app.example/login", cred={"username": "a", "password": "b"}, wait=0)
        self.assertEqual(session["origins"], ["https://app.example"])
        self.assertEqual(len(self.server.requests_to("GET", "/v1/jobs/job_1")), 2)

    def test_a_wait_with_a_timeout_names_the_job_that_goes_on(self) -> None:
        self.server.on("GET", "/v1/jobs/job_1", (200, {}, {"jobId": "job_1", "status": "running"}))
        with self.assertRaises(JobWaitTimeout) as caught:
            self.client.jobs.wait("job_1", timeout=0.2)
        self.assertEqual((caught.exception.code, caught.exception.job_id), ("job_wait_timeout", "job_1"))

    def test_tells_on_needs_input_each_question_once_and_returns_the_session(self) -> None:
        at = "2026-01-01T00:00:00Z"
        question = {"reason": "code", "prompt": "Enter the code", "fields": ["code"], "expiresAt": at}
        events: List[Tuple[str, str, Dict[str, Any]]] = [
            ("1-0", "needs_input", {"type": "needs_input", "jobId": "job_1", "at": at, "input": question}),
            ("2-0", "verifying", {"type": "verifying", "jobId": "job_1", "at": at}),
            ("3-0", "succeeded", {"type": "succeeded", "jobId": "job_1", "at": at, "credentialId": "cred_1"}),
        ]
        self.server.on("GET", "/v1/jobs/job_1/events", sse_answer(events))
        self.server.on("GET", "/v1/jobs/job_1", (200, {}, {"jobId": "job_1", "status": "succeeded", "result": SESSION}))
        asked: List[Tuple[Dict[str, Any], str]] = []
        session = self.client.login(domain="https://app.example/login", cred={"username": "a", "password": "b"}, allow_handoff=True, on_needs_input=lambda q, job: asked.append((q, job)))
        self.assertEqual(asked, [(question, "job_1")])
        self.assertEqual(session["origins"], ["https://app.example"])
        self.assertEqual(json.loads(self.server.requests_to("POST", "/v1/login")[0]["body"])["allowHandoff"], True)

    def test_answers_a_job_waiting_for_a_person_and_says_when_it_waits_for_nothing(self) -> None:
        waiting = {"jobId": "job_1", "status": "running", "eventsUrl": "/v1/jobs/job_1/events"}
        self.server.on("POST", "/v1/jobs/job_1/input", (202, {}, waiting), (409, {}, {"error": {"code": "not_waiting_for_input", "message": "not waiting"}}))
        self.assertEqual(self.client.jobs.input("job_1", code="482913")["status"], "running")
        self.assertEqual(json.loads(self.server.requests_to("POST", "/v1/jobs/job_1/input")[0]["body"]), {"code": "482913"})
        with self.assertRaises(ConflictError) as caught:
            self.client.jobs.input("job_1")
        self.assertEqual(caught.exception.code, "not_waiting_for_input")
        self.assertEqual(json.loads(self.server.requests_to("POST", "/v1/jobs/job_1/input")[1]["body"]), {})

    def test_verify_may_hand_a_step_to_a_person(self) -> None:
        self.server.on("POST", "/v1/credentials/cred_1/verify", (200, {}, {**SESSION, "credentialId": "cred_1"}))
        self.client.credentials.verify("cred_1", code="482913", allow_handoff=True)
        self.assertEqual(json.loads(self.server.requests_to("POST", "/v1/credentials/cred_1/verify")[0]["body"]), {"code": "482913", "allowHandoff": True})

    def test_asks_for_an_entry_link_with_a_key_and_follows_it(self) -> None:
        link = {"linkId": "elink_1", "url": "https://dash.example/enter/elink_1.x", "status": "open", "credentialId": None}
        self.server.on("POST", "/v1/credentials/entry-links", (201, {}, link))
        self.server.on("GET", "/v1/entry-links/elink_1", (200, {}, {**link, "status": "created", "credentialId": "cred_9"}))
        self.assertEqual(self.client.credentials.entry_link("https://app.example/login", collection_id="team-a", expires_in=600)["url"], link["url"])
        sent = self.server.requests_to("POST", "/v1/credentials/entry-links")[0]
        self.assertEqual(json.loads(sent["body"]), {"domain": "https://app.example/login", "collectionId": "team-a", "expiresIn": 600})
        self.assertIn("idempotency-key", {k.lower() for k in sent["headers"]})
        self.assertEqual(self.client.credentials.get_entry_link("elink_1")["credentialId"], "cred_9")

    def test_imports_a_passkey_as_import_with_a_key_and_a_conflict_is_a_conflict_error(self) -> None:
        kept = {"passkey": {"type": "passkey", "passkeyId": "pk_1", "rpId": "app.example", "createdAt": "2026-12-02T07:00:00.000Z", "lastUsedAt": None}, "credentialId": "cred_1"}
        self.server.on("POST", "/v1/credentials/cred_1/passkeys", (201, {}, kept))
        cxf = {"type": "passkey", "credentialId": "Y3JlZA", "rpId": "app.example", "username": "ada", "userDisplayName": "Ada", "userHandle": "YWRh", "key": "MIGH"}
        self.assertEqual(self.client.credentials.import_passkey("cred_1", {"cxf": cxf}), kept)
        sent = self.server.requests_to("POST", "/v1/credentials/cred_1/passkeys")[0]
        self.assertEqual(json.loads(sent["body"]), {"import": {"cxf": cxf}})
        self.assertIn("idempotency-key", {k.lower() for k in sent["headers"]})
        self.server.on("POST", "/v1/credentials/cred_2/passkeys", (409, {}, {"error": {"code": "conflict", "message": "held already: pk_1", "requestId": "r"}}))
        with self.assertRaises(ConflictError):
            self.client.credentials.import_passkey("cred_2", {"cxf": cxf})


class RetryAfterTest(unittest.TestCase):
    def test_reads_seconds_and_http_dates(self) -> None:
        self.assertEqual(parse_retry_after("7"), 7.0)
        self.assertAlmostEqual(parse_retry_after("Thu, 01 Jan 2026 00:00:30 GMT", now=1767225600.0) or 0, 30.0)
        self.assertIsNone(parse_retry_after("soon"))
        self.assertIsNone(parse_retry_after(None))

    def test_backoff_grows_and_stays_bounded(self) -> None:
        self.assertEqual(backoff_delay(0, lambda: 0.0), 0.25)
        self.assertEqual(backoff_delay(1, lambda: 1.0), 1.0)
        self.assertEqual(backoff_delay(30, lambda: 1.0), BACKOFF_CAP_S)


if __name__ == "__main__":
    unittest.main()
