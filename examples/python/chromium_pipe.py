"""Debian's Chromium driven over the DevTools protocol with the standard library only.

`--remote-debugging-pipe` makes Chromium read commands from fd 3 and write answers and events to fd 4,
each a JSON message ended by a NUL byte: no port, no WebSocket, nothing another local process can reach.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from typing import Any, Dict, List, Optional, cast

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
]


class CdpError(RuntimeError):
    pass


class Chromium:
    def __init__(self, executable: str = "/usr/bin/chromium", timeout: float = 20.0) -> None:
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="authsvc-example-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire_fds() -> None:
            # In the child: its reading end becomes fd 3, its writing end fd 4 (via high numbers, so the
            # two moves cannot overwrite each other).
            r, w = os.dup(to_browser_r) + 100, os.dup(from_browser_w) + 100
            os.dup2(to_browser_r, r)
            os.dup2(from_browser_w, w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire_fds,
            pass_fds=(3, 4),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: List[Dict[str, Any]] = []

    def send(self, method: str, params: Optional[Dict[str, Any]] = None, session_id: Optional[str] = None) -> Dict[str, Any]:
        """Sends one command and returns its result (events that arrive meanwhile are kept in `events`)."""
        self._next_id += 1
        message: Dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session_id:
            message["sessionId"] = session_id
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise CdpError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})
            if "method" in answer:
                self.events.append(answer)

    def wait_for(self, method: str, session_id: Optional[str] = None) -> Dict[str, Any]:
        """The first event `method` (of the session) not yet consumed, waiting for it if needed."""
        while True:
            for event in self.events:
                if event["method"] == method and event.get("sessionId") == session_id:
                    self.events.remove(event)
                    return event
            answer = self._read()
            if "method" in answer:
                self.events.append(answer)

    def _read(self) -> Dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_browser], [], [], left)[0]:
                raise CdpError(f"Chromium did not answer within {self.timeout} s")
            chunk = os.read(self._from_browser, 65536)
            if not chunk:
                raise CdpError("Chromium closed the pipe (did it start?)")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return cast(Dict[str, Any], json.loads(message))

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except (CdpError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self._profile, ignore_errors=True)


class Tab:
    """A page target attached in flat mode: commands go to it by session id."""

    def __init__(self, browser: Chromium) -> None:
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session_id = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")

    def send(self, method: str, params: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        return self.browser.send(method, params, self.session_id)

    def goto(self, url: str) -> None:
        self.browser.events = [e for e in self.browser.events if e.get("method") != "Page.loadEventFired"]
        navigated = self.send("Page.navigate", {"url": url})
        if navigated.get("errorText"):
            raise CdpError(f"navigation to {url} failed: {navigated['errorText']}")
        self.browser.wait_for("Page.loadEventFired", self.session_id)

    def evaluate(self, expression: str) -> Any:
        answer = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in answer:
            raise CdpError(f"script failed: {answer['exceptionDetails'].get('text')}")
        return answer["result"].get("value")
