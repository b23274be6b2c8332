import { parseEventStream } from "./sse";

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>) {
  const out = [];
  for await (const e of parseEventStream(stream)) out.push(e);
  return out;
}

describe("parseEventStream", () => {
  it("reads id, event and data, skips keep-alive comments, and keeps the last id", async () => {
    const events = await all(
      streamOf(
        ': keep-alive\n\nid: 1-0\nevent: queued\ndata: {"a":1}\n\n',
        'id: 2-0\nevent: started\ndata: {"b":2}\n\n',
      ),
    );
    expect(events).toEqual([
      { id: "1-0", event: "queued", data: '{"a":1}' },
      { id: "2-0", event: "started", data: '{"b":2}' },
    ]);
  });

  it("joins events split anywhere across chunks, \\r\\n split between two chunks included", async () => {
    const text = 'id: 7\r\nevent: form_found\r\ndata: {"x":"é"}\r\n\r\n';
    const bytes = new TextEncoder().encode(text);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.slice(i, i + 3)); // splits the é's two bytes too
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        chunks.forEach((chunk) => c.enqueue(chunk));
        c.close();
      },
    });
    expect(await all(stream)).toEqual([{ id: "7", event: "form_found", data: '{"x":"é"}' }]);
  });

  it("joins multi-line data, defaults the type to message, and does not dispatch an event without data", async () => {
    const events = await all(streamOf("id: 9\n\ndata: one\ndata:two\n\nevent: x\ndata\n\n"));
    expect(events).toEqual([
      { id: "9", event: "message", data: "one\ntwo" },
      { id: "9", event: "x", data: "" },
    ]);
  });

  it("drops an event cut off before its blank line", async () => {
    expect(await all(streamOf("id: 1\nevent: queued\ndata: {}\n\nid: 2\nevent: started\ndata: {"))).toEqual([
      { id: "1", event: "queued", data: "{}" },
    ]);
  });
});
