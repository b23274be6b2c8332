import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { pipeline } from "node:stream";
import type { TargetGuard } from "@authsvc/egress";
import { connectVia, ProxyFailure, type UpstreamProxy } from "./upstream-proxy";

/**
 * A door of the egress proxy that leaves through an organization's proxy: a browser context given its URL
 * (`proxyServer`) has every connection checked as any other, then opened through `upstream`. `failure`:
 * the first time the upstream proxy failed (its fault, not the site's).
 */
export interface ProxyDoor {
  url: string;
  failure(): ProxyFailure | null;
  /** Opens a connection to `host:port` through the door, as the browser would, and closes it: the proxy answers, or says why not. */
  check(host: string, port: number): Promise<void>;
  close(): Promise<void>;
}

export interface EgressRefusal {
  host: string;
  reason: string;
}

const CONNECT_TIMEOUT_MS = 10_000;
// A connection with no traffic either way for this long is cut (long-polls and event streams included).
const IDLE_TIMEOUT_MS = 120_000;
// Checked answers are reused briefly: a page loads many resources from one host. Safe against rebinding,
// because the proxy connects to the addresses it checked, never to a fresh lookup.
const VERDICT_TTL_MS = 30_000;
const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

function splitHostPort(authority: string): { host: string; port: number } | null {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(authority) ?? /^([^:[\]]+):(\d+)$/.exec(authority);
  const port = Number(m?.[2]);
  return m && Number.isInteger(port) && port >= 1 && port <= 65535 ? { host: m[1]!, port } : null;
}

function endToEndHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase());
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!HOP_BY_HOP.includes(name) && !named.includes(name)) out[name] = value;
  return out;
}

function refuseSocket(socket: Socket, status: string): void {
  if (!socket.destroyed) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * The one door out for Chromium (`--proxy-server`). Every connection — pages, redirects, popups, workers,
 * service workers, WebSockets — is checked here: the proxy resolves the host itself, checks every address
 * with the target guard and connects only to addresses it checked, so a name that resolves differently a
 * moment later (DNS rebinding) cannot reach a private address. The guard's host map (tests only) sends a
 * mapped name's ports 80 and 443 to its fixture's loopback port. Whatever a remote server sends, the proxy
 * answers with an HTTP error or a closed socket, never an exception in the worker.
 */
export class EgressProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly verdicts = new Map<string, { addresses: Promise<string[] | null>; until: number }>();

  constructor(
    private readonly guard: TargetGuard,
    private readonly onRefused: (refusal: EgressRefusal) => void = () => undefined,
  ) {}

  /** The checked addresses of a host, or null (and a refusal reported) when it may not be reached. */
  private admit(host: string): Promise<string[] | null> {
    const now = Date.now();
    const cached = this.verdicts.get(host);
    if (cached && cached.until > now) return cached.addresses;
    const addresses = this.guard.resolve(host).then((verdict) => {
      if (verdict.allowed) return verdict.addresses;
      this.onRefused({ host, reason: verdict.reason });
      return null;
    });
    if (this.verdicts.size > 1000) this.verdicts.clear();
    this.verdicts.set(host, { addresses, until: now + VERDICT_TTL_MS });
    return addresses;
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
    return socket;
  }

  /** Connects to the first of the checked addresses that answers (through `via`, when the door has one). */
  private async connectAny(addresses: string[], port: number, via: Via | null = null): Promise<Socket> {
    let lastError: unknown = new Error("no address");
    for (const address of addresses) {
      if (via) {
        try {
          return this.track(await connectVia(via.upstream, address, port));
        } catch (err) {
          if (err instanceof ProxyFailure) via.failed ??= err;
          lastError = err;
          // A proxy that refused us (or is away) refuses every address alike.
          break;
        }
      }
      try {
        return await new Promise<Socket>((resolve, reject) => {
          const socket = connect({ host: address, port });
          const timer = setTimeout(() => socket.destroy(new Error("connect timeout")), CONNECT_TIMEOUT_MS);
          socket.once("connect", () => {
            clearTimeout(timer);
            resolve(this.track(socket));
          });
          socket.once("error", (err) => {
            clearTimeout(timer);
            reject(err);
          });
        });
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  }

  /** HTTPS and WebSocket traffic: CONNECT host:port, then a blind tunnel to a checked address. */
  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer, via: Via | null = null): Promise<void> {
    this.track(client);
    const target = splitHostPort(req.url ?? "");
    if (!target) return refuseSocket(client, "400 Bad Request");
    const addresses = await this.admit(target.host);
    if (!addresses) return refuseSocket(client, "403 Forbidden");
    let upstream: Socket;
    try {
      // A mapped name's ports 80 and 443 lead to its fixture's port; see HostMap.
      upstream = await this.connectAny(addresses, this.guard.hostMap.portFor(target.host, target.port), via);
    } catch {
      return refuseSocket(client, "502 Bad Gateway");
    }
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) upstream.write(head);
    pipeline(upstream, client, () => upstream.destroy());
    pipeline(client, upstream, () => client.destroy());
  }

  /** Plain HTTP: an absolute-URI request, forwarded to a checked address with its Host header kept. */
  private async forward(req: IncomingMessage, res: ServerResponse, via: Via | null = null): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (url.protocol !== "http:") {
      res.writeHead(400).end();
      return;
    }
    const addresses = await this.admit(url.hostname);
    if (!addresses) {
      res.writeHead(403, { "content-type": "text/plain" }).end("blocked by egress policy");
      return;
    }
    let socket: Socket;
    try {
      // The Host header stays the name the page asked for; only the port changes for a mapped name.
      socket = await this.connectAny(addresses, this.guard.hostMap.portFor(url.hostname, Number(url.port || 80)), via);
    } catch {
      if (!res.headersSent) res.writeHead(502).end();
      return;
    }
    const upstream = httpRequest(
      {
        createConnection: () => socket,
        method: req.method,
        path: url.pathname + url.search,
        headers: endToEndHeaders(req.headers),
        setHost: false,
      },
      (answer) => {
        const status = answer.statusCode ?? 0;
        if (status < 100 || status > 599 || status === 101) {
          answer.destroy();
          if (!res.headersSent) res.writeHead(502).end();
          return;
        }
        try {
          res.writeHead(status, endToEndHeaders(answer.headers));
        } catch {
          answer.destroy();
          res.destroy();
          return;
        }
        pipeline(answer, res, () => undefined);
      },
    );
    upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.once("close", () => upstream.destroy());
    pipeline(req, upstream, () => undefined);
  }

  /** Starts listening on loopback; returns the proxy address for `--proxy-server`. */
  async start(): Promise<string> {
    this.server = await this.listen(null);
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * A door of its own that leaves through `upstream` (a job's proxy), for one browser context: the same
   * checks, then every connection opened through that proxy to the address checked. Closed with the job.
   */
  async door(upstream: UpstreamProxy): Promise<ProxyDoor> {
    const via: Via = { upstream, failed: null };
    const server = await this.listen(via);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      failure: () => via.failed,
      check: async (host, port) => {
        const addresses = await this.admit(host);
        if (!addresses) return;
        const socket = await this.connectAny(addresses, this.guard.hostMap.portFor(host, port), via).catch(
          (err: unknown) => {
            if (via.failed) throw via.failed;
            throw err;
          },
        );
        socket.destroy();
      },
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  private async listen(via: Via | null): Promise<Server> {
    const server = createServer((req, res) => {
      this.forward(req, res, via).catch(() => res.destroy());
    });
    server.on("connect", (req, socket, head) => {
      this.tunnel(req, socket as Socket, head, via).catch(() => (socket as Socket).destroy());
    });
    server.on("connection", (socket) => this.track(socket));
    server.on("clientError", (_err, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        server.removeListener("error", reject);
        resolve();
      });
    });
    // Out of file descriptors or the like: drop the connection, keep the process.
    server.on("error", () => undefined);
    return server;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}

/** A door's way out: the upstream proxy, and the first failure it had. */
interface Via {
  upstream: UpstreamProxy;
  failed: ProxyFailure | null;
}
