"""The client against the running service: a signup confirmed by an emailed code, then a refresh whose
webhook delivery is verified by a local receiver."""

from __future__ import annotations

import queue
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Tuple

from authsvc import Client, NotFoundError, cookie_header, verify_webhook

from .live_stack import Stack, expire_site_sessions, live_stack, page_text

Delivery = Tuple[Dict[str, str], bytes]


class WebhookReceiver:
    """A customer's webhook endpoint on loopback: hands every delivery (headers, raw body) to the test."""

    def __init__(self) -> None:
        self.deliveries: "queue.Queue[Delivery]" = queue.Queue()
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                deliveries.put(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hooks/authsvc"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class LiveSignupTest(unittest.TestCase):
    stack: Stack
    client: Client
    receiver: WebhookReceiver

    @classmethod
    def setUpClass(cls) -> None:
        cls.stack = live_stack()
        cls.client = cls.stack.client()
        cls.receiver = WebhookReceiver()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.receiver.close()

    def signed_in_as(self, session: Dict[str, Any], page: str, who: str) -> None:
        account = f"{self.stack.sites_url}/cases/{page}/account"
        self.assertIn(f"Welcome, {who}", page_text(account, headers={"Cookie": cookie_header(session, account)}))

    def test_signup_with_an_emailed_code_then_refresh_with_a_verified_webhook(self) -> None:
        hook = self.client.webhooks.create(self.receiver.url, events=["session.refreshed"])
        self.assertRegex(hook["secret"], r"^whsec_")
        self.assertEqual([h["id"] for h in self.client.webhooks.list()], [hook["id"]])

        # The site mails a 6-digit code to a mailbox the service allocates, and the service types it.
        signup = self.client.signup(domain=f"{self.stack.sites_url}/cases/signup-code/signup", allocate_mailbox=True, cred={"name": "Grace Hopper"}, collection_id="py-signups")
        self.assertEqual(signup.status, 201)
        email = signup["account"]["email"]
        credential_id = signup["credentialId"]
        self.assertRegex(credential_id, r"^cred_")
        self.signed_in_as(signup, "signup-code", email)
        self.assertIn(email, [m["address"] for m in self.client.mailboxes.list()])
        credential = self.client.credentials.get(credential_id)
        self.assertEqual((credential["username"], credential["status"], credential["collectionId"]), (email, "active", "py-signups"))
        self.assertIn(credential_id, [c["credentialId"] for c in self.client.credentials.iter_all()])

        # The site ends the session; refresh signs in again with the stored (generated) password.
        self.assertGreater(expire_site_sessions(self.stack, email), 0)
        refreshed = self.client.refresh(credential_id)
        self.assertEqual((refreshed.status, refreshed["credentialId"]), (200, credential_id))
        self.signed_in_as(refreshed, "signup-code", email)

        headers, raw = self.receiver.deliveries.get(timeout=20)
        event = verify_webhook(hook["secret"], raw, headers.get("x-authsvc-signature"))
        self.assertEqual((event["type"], event["data"]["credentialId"]), ("session.refreshed", credential_id))
        self.assertEqual(headers.get("x-authsvc-delivery"), event["id"])

        self.client.webhooks.delete(hook["id"])
        self.client.credentials.delete(credential_id)
        with self.assertRaises(NotFoundError):
            self.client.credentials.get(credential_id)


if __name__ == "__main__":
    unittest.main()
