import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { TargetGuard } from "./target-guard";

export interface EgressRefusal {
  host: string;
  reason: string;
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(authority) ?? /^([^:]+)(?::(\d+))?$/.exec(authority);
  return { host: m?.[1] ?? authority, port: Number(m?.[2] ?? defaultPort) };
}

function refuseSocket(socket: Socket, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * The one door out for Chromium (`--proxy-server`). Every connection — pages, redirects, popups, workers,
 * service workers, WebSockets — is checked here: the proxy resolves the host itself, checks every address
 * with the target guard and connects to the address it checked, so a name that resolves differently a
 * moment later (DNS rebinding) cannot reach a private address.
 */
export class EgressProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly guard: TargetGuard,
    private readonly onRefused: (refusal: EgressRefusal) => void = () => undefined,
  ) {}

  private async admit(host: string): Promise<string | null> {
    const verdict = await this.guard.resolve(host);
    if (verdict.allowed) return verdict.address;
    this.onRefused({ host, reason: verdict.reason });
    return null;
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    return socket;
  }

  /** HTTPS and WebSocket traffic: CONNECT host:port, then a blind tunnel to the checked address. */
  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    this.track(client);
    const { host, port } = splitHostPort(req.url ?? "", 443);
    const address = await this.admit(host);
    if (!address) return refuseSocket(client, "403 Forbidden");
    const upstream = this.track(connect(port, address));
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once("error", () => refuseSocket(client, "502 Bad Gateway"));
    client.once("close", () => upstream.destroy());
  }

  /** Plain HTTP: an absolute-URI request, forwarded to the checked address with its Host header kept. */
  private async forward(req: IncomingMessage, res: import("node:http").ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    const address = await this.admit(url.hostname);
    if (!address) {
      res.writeHead(403, { "content-type": "text/plain" }).end("blocked by egress policy");
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = httpRequest({ host: address, port: Number(url.port || 80), method: req.method, path: url.pathname + url.search, headers, setHost: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  }

  /** Starts listening on loopback; returns the proxy address for `--proxy-server`. */
  async start(): Promise<string> {
    const server = createServer((req, res) => void this.forward(req, res));
    server.on("connect", (req, socket, head) => void this.tunnel(req, socket as Socket, head));
    server.on("connection", (socket) => this.track(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}
