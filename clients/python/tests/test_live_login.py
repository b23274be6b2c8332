"""The client against the running service: logins, job progress, idempotent retries, typed errors."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
import urllib.request
import uuid
from typing import Any, Dict, List

from authsvc import AuthenticationError, Client, IdempotencyMismatchError, LoginFailedError, NotFoundError, cookie_header, to_cookiejar

from .live_stack import Stack, attempts, live_stack, new_site_user, page_text, run_example

# The order a login's events happen in (packages/contracts/src/job-events.ts).
EVENT_ORDER = ["queued", "started", "navigating", "form_found", "submitted", "waiting_for_email", "waiting_for_sms", "verifying", "succeeded", "failed"]


class LiveLoginTest(unittest.TestCase):
    stack: Stack
    client: Client

    @classmethod
    def setUpClass(cls) -> None:
        cls.stack = live_stack()
        cls.client = cls.stack.client()

    def login_page(self) -> str:
        return f"{self.stack.sites_url}/classic/login"

    def test_login_runs_one_browser_for_an_idempotent_retry_and_its_session_signs_in_everywhere(self) -> None:
        user = new_site_user(self.stack)
        key = f"py-{uuid.uuid4()}"
        session = self.client.login(domain=self.login_page(), login_method="password", cred=user, use_cache=False, idempotency_key=key)
        self.assertEqual((session.status, session.cache, session.replayed), (200, "miss", False))
        self.assertRegex(session.job_id or "", r"^job_")
        self.assertEqual(session["origins"], [self.stack.sites_url])
        self.assertEqual(session["storageState"]["cookies"], session["cookies"])

        # The same keyed request again (a retry after a lost answer): the first answer, no second browser run.
        again = self.client.login(domain=self.login_page(), login_method="password", cred=user, use_cache=False, idempotency_key=key)
        self.assertTrue(again.replayed)
        self.assertEqual(again["cookies"], session["cookies"])
        self.assertEqual(attempts(self.stack, user["username"]), {"classic": 1})
        with self.assertRaises(IdempotencyMismatchError) as caught:
            self.client.login(domain=self.login_page(), cred=user, use_cache=True, idempotency_key=key)
        self.assertEqual((caught.exception.code, caught.exception.status), ("idempotency_mismatch", 422))

        account = f"{self.stack.sites_url}/classic/account"
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(to_cookiejar(session)))
        self.assertIn(f"Welcome, {user['username']}", page_text(account, opener))
        self.assertIn(f"Welcome, {user['username']}", page_text(account, headers={"Cookie": cookie_header(session, account)}))

        cached = self.client.login(domain=self.login_page(), cred=user)
        self.assertEqual((cached.status, cached.cache), (200, "hit"))

        # The example logs in (from the cache now), writes storage_state and shows the page in Chromium.
        with tempfile.TemporaryDirectory() as tmp:
            state_path = os.path.join(tmp, "storage_state.json")
            done = run_example(self.stack, user, state_path)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertIn(f"the signed-in page shows: Welcome, {user['username']}", done.stdout)
            with open(state_path, encoding="utf-8") as f:
                self.assertEqual(json.load(f)["cookies"], session["cookies"])
        self.assertNotIn(user["password"], done.stdout + done.stderr)
        self.assertEqual(attempts(self.stack, user["username"]), {"classic": 1})

    def test_a_202_is_followed_through_its_events_to_the_session(self) -> None:
        user = new_site_user(self.stack)
        events: List[Dict[str, Any]] = []
        session = self.client.login(domain=self.login_page(), cred=user, use_cache=False, respond_async=True, on_progress=events.append)
        self.assertEqual(session.status, 202)
        types = [e["type"] for e in events]
        self.assertEqual(types[0], "queued")
        self.assertEqual(types[-1], "succeeded")
        self.assertTrue({"started", "navigating", "form_found", "submitted"} <= set(types), types)
        known = [t for t in types if t in EVENT_ORDER]
        self.assertEqual(known, sorted(known, key=EVENT_ORDER.index), "events out of order")
        self.assertTrue(all(e["jobId"] == session.job_id and e["id"] for e in events))
        # No event carries a secret: not the password, not a cookie of the session.
        text = json.dumps(events)
        for secret in [user["password"]] + [c["value"] for c in session["cookies"]]:
            self.assertNotIn(secret, text)
        self.assertIn(f"Welcome, {user['username']}", page_text(f"{self.stack.sites_url}/classic/account", headers={"Cookie": cookie_header(session, self.stack.sites_url + "/classic/account")}))

        # A late reader gets the whole story again, and one resuming after an event gets the rest.
        late = list(self.client.jobs.events(session.job_id or ""))
        self.assertEqual([e["type"] for e in late], types)
        resumed = list(self.client.jobs.events(session.job_id or "", last_event_id=late[1]["id"]))
        self.assertEqual([e["type"] for e in resumed], types[2:])
        job = self.client.jobs.get(session.job_id or "")
        self.assertEqual((job["status"], job["result"]["cookies"]), ("succeeded", session["cookies"]))

    def test_a_wrong_password_raises_invalid_credentials_without_the_password(self) -> None:
        user = new_site_user(self.stack)
        wrong = {"username": user["username"], "password": "not-the-password-77"}
        with self.assertRaises(LoginFailedError) as caught:
            self.client.login(domain=self.login_page(), cred=wrong)
        err = caught.exception
        self.assertEqual((err.code, err.status), ("invalid_credentials", 422))
        self.assertRegex(err.request_id or "", r".+")
        self.assertNotIn("not-the-password-77", str(err))

    def test_the_resources_and_their_errors(self) -> None:
        with self.assertRaises(AuthenticationError) as caught:
            Stack(self.stack.base_url, "pk_" + "x" * 43, self.stack.sites_url).client().credentials.list()
        self.assertEqual((caught.exception.code, caught.exception.status), ("unauthorized", 401))
        with self.assertRaises(NotFoundError):
            self.client.jobs.get("job_" + "0" * 22)
        self.assertEqual(self.client.phone_numbers.list(), [])
        mailbox = self.client.mailboxes.create(label="python client")
        self.assertEqual(self.client.mailboxes.get(mailbox["id"])["address"], mailbox["address"])
        self.assertIn(mailbox["id"], [m["id"] for m in self.client.mailboxes.list()])
        self.assertEqual(self.client.mailboxes.messages(mailbox["id"]), {"messages": [], "next": None})
        self.assertTrue(self.client.mailboxes.forwarding()["forwarding"])
        self.client.mailboxes.delete(mailbox["id"])
        with self.assertRaises(NotFoundError):
            self.client.mailboxes.get(mailbox["id"])


if __name__ == "__main__":
    unittest.main()
