"""What the live tests need from a running stack: the service, a key, and the fixture sites' test hooks.

AUTHSVC_BASE_URL, AUTHSVC_API_KEY and AUTHSVC_SITES_URL name them; without them the live tests are skipped,
unless AUTHSVC_REQUIRE_LIVE is set (the jest wrapper sets it), in which case they fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import unittest
import urllib.parse
import urllib.request
from typing import Any, Dict, NamedTuple, Optional

from authsvc import Client


class Stack(NamedTuple):
    base_url: str
    api_key: str
    sites_url: str

    def client(self, **options: Any) -> Client:
        return Client(self.base_url, self.api_key, **options)


def live_stack() -> Stack:
    names = ("AUTHSVC_BASE_URL", "AUTHSVC_API_KEY", "AUTHSVC_SITES_URL")
    values = [os.environ.get(n, "") for n in names]
    if not all(values):
        missing = ", ".join(n for n, v in zip(names, values) if not v)
        if os.environ.get("AUTHSVC_REQUIRE_LIVE"):
            raise RuntimeError(f"live tests required but {missing} not set")
        raise unittest.SkipTest(f"live tests need {missing}")
    return Stack(*[v.rstrip("/") for v in values])


def fixture_post(stack: Stack, path: str, body: Dict[str, Any]) -> Any:
    request = urllib.request.Request(stack.sites_url + path, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read()
        return json.loads(text) if text.strip() else None


_seq = 0


def new_site_user(stack: Stack, password: str = "correct-horse-battery") -> Dict[str, str]:
    """A user that exists only on the fixture sites and only for the calling test, so its attempt count is its own."""
    global _seq
    _seq += 1
    username = f"py{os.getpid()}x{_seq}x{int(time.time() * 1000):x}"
    fixture_post(stack, "/__fixture/users", {"username": username, "password": password, "locked": False})
    return {"username": username, "password": password}


def attempts(stack: Stack, username: str) -> Dict[str, int]:
    """Login attempts the fixture sites counted for the user, per site: how often a browser really typed."""
    with urllib.request.urlopen(f"{stack.sites_url}/__fixture/attempts/{urllib.parse.quote(username)}", timeout=10) as answer:
        return json.loads(answer.read())


def expire_site_sessions(stack: Stack, username: str) -> int:
    return int(fixture_post(stack, "/__fixture/expire-sessions", {"username": username})["ended"])


def page_text(url: str, opener: Optional[urllib.request.OpenerDirector] = None, headers: Optional[Dict[str, str]] = None) -> str:
    request = urllib.request.Request(url, headers=headers or {})
    with (opener or urllib.request.build_opener()).open(request, timeout=10) as answer:
        return answer.read().decode("utf-8", "replace")


EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "examples", "python", "browser_session.py")


def run_example(stack: Stack, user: Dict[str, str], state_path: str) -> "subprocess.CompletedProcess[str]":
    """examples/python/browser_session.py for this user against the stack (its Chromium: CHROMIUM_PATH)."""
    env = {
        **os.environ,
        "AUTHSVC_BASE_URL": stack.base_url,
        "AUTHSVC_API_KEY": stack.api_key,
        "AUTHSVC_SITES_URL": stack.sites_url,
        "AUTHSVC_USERNAME": user["username"],
        "AUTHSVC_PASSWORD": user["password"],
        "AUTHSVC_STORAGE_STATE": state_path,
    }
    return subprocess.run([sys.executable, EXAMPLE], env=env, capture_output=True, text=True, timeout=120)
