"""examples/python/browser_session.py against the running service: the session it hands to Chromium
opens the classic fixture site's signed-in page."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import unittest

from .live_stack import live_stack, new_site_user

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples", "python", "browser_session.py")


class LiveExampleTest(unittest.TestCase):
    def test_the_example_shows_the_signed_in_page_in_chromium(self) -> None:
        stack = live_stack()
        chromium = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        self.assertTrue(os.path.exists(chromium), f"the example needs Chromium at {chromium}")
        user = new_site_user(stack)
        with tempfile.TemporaryDirectory() as tmp:
            state_path = os.path.join(tmp, "storage_state.json")
            done = subprocess.run(
                [sys.executable, EXAMPLE],
                env={
                    **os.environ,
                    "AUTHSVC_USERNAME": user["username"],
                    "AUTHSVC_PASSWORD": user["password"],
                    "AUTHSVC_STORAGE_STATE": state_path,
                    "CHROMIUM_PATH": chromium,
                },
                capture_output=True,
                text=True,
                timeout=120,
            )
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            self.assertIn(f"the signed-in page shows: Welcome, {user['username']}", done.stdout)
            with open(state_path, encoding="utf-8") as f:
                self.assertTrue(json.load(f)["cookies"])
        self.assertNotIn(user["password"], done.stdout + done.stderr)


if __name__ == "__main__":
    unittest.main()
