from __future__ import annotations

import json
import unittest

from authsvc import WebhookSignatureError, verify_webhook
from authsvc.webhooks import sign_webhook

SECRET = "whsec_test"
BODY = json.dumps({"id": "evt_1", "type": "session.refreshed", "data": {"credentialId": "cred_1"}}).encode()
NOW = 1_800_000_000


class VerifyWebhookTest(unittest.TestCase):
    def test_returns_the_event_of_a_good_signature_for_bytes_and_str(self) -> None:
        header = sign_webhook(SECRET, BODY, NOW)
        self.assertEqual(verify_webhook(SECRET, BODY, header, now=NOW + 10)["type"], "session.refreshed")
        self.assertEqual(verify_webhook(SECRET, BODY.decode(), header, now=NOW)["id"], "evt_1")

    def test_matches_the_services_scheme(self) -> None:
        # HMAC-SHA256("whsec_test", "1800000000.{}") computed independently with openssl.
        self.assertEqual(sign_webhook(SECRET, b"{}", NOW), "t=1800000000,v1=482e6337ac5272392d375c6fdc4d52a7e615dc2facedab0ffe155ddfd6a56e66")

    def test_refuses_a_changed_body_a_wrong_secret_an_old_signature_and_malformed_headers(self) -> None:
        header = sign_webhook(SECRET, BODY, NOW)
        cases = [
            (SECRET, BODY + b" ", header, NOW),
            ("whsec_other", BODY, header, NOW),
            (SECRET, BODY, header, NOW + 301),
            (SECRET, BODY, header, NOW - 301),
            (SECRET, BODY, None, NOW),
            (SECRET, BODY, "v1=abc", NOW),
            (SECRET, BODY, f"t={NOW}", NOW),
        ]
        for secret, body, sig, now in cases:
            with self.subTest(sig=sig, now=now), self.assertRaises(WebhookSignatureError) as caught:
                verify_webhook(secret, body, sig, now=now)
            self.assertNotIn(SECRET, str(caught.exception))

    def test_accepts_any_of_several_v1_signatures(self) -> None:
        good = sign_webhook(SECRET, BODY, NOW).split("v1=")[1]
        self.assertEqual(verify_webhook(SECRET, BODY, f"t={NOW},v1={'0' * 64},v1={good}", now=NOW)["id"], "evt_1")


if __name__ == "__main__":
    unittest.main()
