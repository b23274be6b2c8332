"""A loopback HTTP server that answers from a script, to drive the client's retry and stream logic into
the faults (dropped connections, 503s, broken streams) the live service cannot be made to produce."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple

# A scripted answer: (status, headers, body) or "drop" (close the connection without answering).
Answer = Any
Seen = Dict[str, Any]


class ScriptedServer:
    def __init__(self) -> None:
        self.script: Dict[Tuple[str, str], List[Answer]] = {}
        self.seen: List[Seen] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def handle_any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                outer.seen.append({"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body})
                queue = outer.script.get((self.command, self.path.split("?")[0])) or []
                answer = queue.pop(0) if len(queue) > 1 else (queue[0] if queue else (404, {}, {"error": {"code": "not_found", "message": "unscripted"}}))
                if callable(answer):
                    answer(self)
                    return
                if answer == "drop":
                    self.close_connection = True
                    self.connection.close()
                    return
                status, headers, payload = answer
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = handle_any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def on(self, method: str, path: str, *answers: Answer) -> None:
        """Answers in turn; the last one repeats."""
        self.script[(method, path)] = list(answers)

    def requests_to(self, method: str, path: str) -> List[Seen]:
        return [s for s in self.seen if s["method"] == method and s["path"].split("?")[0] == path]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def sse_answer(events: List[Tuple[str, str, Dict[str, Any]]], *, end: bool = True) -> Callable[[BaseHTTPRequestHandler], None]:
    """A handler that streams `(id, type, data)` events (and a keep-alive comment), then ends or just drops."""

    def handle(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(b": keep-alive\n\n")
        for event_id, kind, data in events:
            h.wfile.write(f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data)}\n\n".encode())
        h.wfile.flush()
        h.close_connection = True

    return handle


def no_sleep(_seconds: float) -> None:
    pass


def recorder(into: List[float]) -> Callable[[float], None]:
    return into.append


def header(seen: Seen, name: str) -> Optional[str]:
    for k, v in seen["headers"].items():
        if k.lower() == name.lower():
            return v
    return None
