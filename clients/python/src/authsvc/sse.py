"""Server-Sent Events read from a streaming HTTP body (the parts of the WHATWG parsing rules the API uses)."""

from __future__ import annotations

from typing import IO, Iterator, List, NamedTuple, Optional


class ServerSentEvent(NamedTuple):
    id: Optional[str]
    event: str
    data: str


def read_events(stream: IO[bytes]) -> Iterator[Optional[ServerSentEvent]]:
    """Yields each complete event, and None for a comment line (`: keep-alive`, a sign of life that carries
    nothing); a partial event at the end of the stream is dropped."""
    event_id: Optional[str] = None
    event_type = ""
    data: List[str] = []
    while True:
        raw = stream.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield ServerSentEvent(event_id, event_type or "message", "\n".join(data))
            event_type, data = "", []
            continue
        if line.startswith(":"):
            yield None
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            event_type = value
        elif field == "id" and "\0" not in value:
            # The id persists across events until another one is sent, as in a browser's EventSource.
            event_id = value
