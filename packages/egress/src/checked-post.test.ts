import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { postToCheckedAddresses } from "./checked-post";

let server: Server;
let port: number;
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      if (req.url === "/slow") return; // never answers
      res.writeHead(req.url === "/gone" ? 410 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("postToCheckedAddresses", () => {
  it("connects to the checked address without looking the name up again, keeping the name as Host", async () => {
    // hook.test resolves nowhere: only the pinned address can reach the receiver.
    const status = await postToCheckedAddresses(
      new URL(`http://hook.test:${port}/events`),
      ["127.0.0.1"],
      { "content-type": "application/json" },
      '{"a":1}',
      30_000,
    );
    expect(status).toBe(204);
    expect(received.at(-1)).toEqual({
      headers: expect.objectContaining({ host: `hook.test:${port}`, "content-length": "7" }),
      body: '{"a":1}',
    });
  });

  it("answers the status of a refusal, and fails when nothing answers in time", async () => {
    expect(
      await postToCheckedAddresses(new URL(`http://hook.test:${port}/gone`), ["127.0.0.1"], {}, "{}", 30_000),
    ).toBe(410);
    await expect(
      postToCheckedAddresses(new URL(`http://hook.test:${port}/slow`), ["127.0.0.1"], {}, "{}", 300),
    ).rejects.toThrow("no answer within 300 ms");
    // A pinned address where nothing listens is a network fault (retried by the queue), never another address.
    await expect(
      postToCheckedAddresses(new URL(`http://hook.test:${port}/events`), ["127.0.0.2"], {}, "{}", 30_000),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
