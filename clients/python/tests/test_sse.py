from __future__ import annotations

import io
import unittest

from authsvc.sse import ServerSentEvent, read_events


class ReadEventsTest(unittest.TestCase):
    def test_reads_ids_types_multi_line_data_comments_and_crlf(self) -> None:
        stream = io.BytesIO(b": keep-alive\r\n\r\nid: 1-0\r\nevent: queued\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\nevent: started\ndata:{}\n\nid: 3-0\nevent: cut")
        events = list(read_events(stream))
        self.assertEqual(
            events,
            [
                None,
                ServerSentEvent("1-0", "queued", '{"a":\n1}'),
                # No id line: the last one seen stays, as in a browser's EventSource.
                ServerSentEvent("1-0", "started", "{}"),
            ],
        )


if __name__ == "__main__":
    unittest.main()
