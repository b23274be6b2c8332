import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void;

/**
 * A loopback HTTP server for the SDK's unit tests: the client talks real HTTP to it (sockets, streams,
 * resets), and each test scripts the answers and reads back what the client sent.
 */
export async function scriptedServer(
  handle: Handler,
): Promise<{ url: string; seen: SeenRequest[]; close: () => Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(request);
      handle(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(body === undefined ? undefined : JSON.stringify(body));
}
