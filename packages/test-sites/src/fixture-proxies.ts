import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import {
  type AddressInfo,
  connect,
  createServer as createTcpServer,
  type Server as TcpServer,
  type Socket,
} from "node:net";

/**
 * Two egress proxies of the kind agent platforms rent, on loopback, each leaving from an address of its own
 * so a fixture site sees a different client address through each: an HTTP proxy with Basic credentials
 * (out from 127.0.0.2) and a SOCKS5 proxy with username and password (out from 127.0.0.3). The URLs carry
 * the right credentials; `connections` counts the tunnels each opened.
 */
export interface FixtureProxies {
  http: { url: string; exit: string; connections: number };
  socks5: { url: string; exit: string; connections: number };
  close(): Promise<void>;
}

export const PROXY_USER = "agent";
export const PROXY_PASSWORD = "proxy-pass-7f3a";

function dial(host: string, port: number, localAddress: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, localAddress });
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

function pipeBoth(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.once("close", end);
  b.once("close", end);
  a.on("error", end);
  b.on("error", end);
}

export async function startFixtureProxies(): Promise<FixtureProxies> {
  const http = { url: "", exit: "127.0.0.2", connections: 0 };
  const socks5 = { url: "", exit: "127.0.0.3", connections: 0 };
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };

  const httpServer: Server = createHttpServer((_req, res) => res.writeHead(405).end());
  httpServer.on("connection", track);
  httpServer.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const expected = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString("base64")}`;
    if (req.headers["proxy-authorization"] !== expected) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="fixture"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? "");
    if (!m) return void client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    dial(m[1]!, Number(m[2]), http.exit).then(
      (upstream) => {
        track(upstream);
        http.connections++;
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        pipeBoth(client, upstream);
      },
      () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"),
    );
  });

  const socksServer: TcpServer = createTcpServer((client) => {
    track(client);
    let stage: "greeting" | "auth" | "request" = "greeting";
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === "greeting") {
        if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
        const methods = [...buffer.subarray(2, 2 + buffer[1]!)];
        buffer = buffer.subarray(2 + buffer[1]!);
        if (!methods.includes(0x02)) return void client.end(Buffer.from([0x05, 0xff]));
        client.write(Buffer.from([0x05, 0x02]));
        stage = "auth";
      }
      if (stage === "auth") {
        if (buffer.length < 2) return;
        const ulen = buffer[1]!;
        if (buffer.length < 3 + ulen) return;
        const plen = buffer[2 + ulen]!;
        if (buffer.length < 3 + ulen + plen) return;
        const user = buffer.subarray(2, 2 + ulen).toString();
        const pass = buffer.subarray(3 + ulen, 3 + ulen + plen).toString();
        buffer = buffer.subarray(3 + ulen + plen);
        if (user !== PROXY_USER || pass !== PROXY_PASSWORD) return void client.end(Buffer.from([0x01, 0x01]));
        client.write(Buffer.from([0x01, 0x00]));
        stage = "request";
      }
      if (stage === "request") {
        if (buffer.length < 10 || buffer[3] !== 0x01)
          return buffer.length >= 5 && buffer[3] !== 0x01
            ? void client.end(Buffer.from([0x05, 0x08, 0, 1, 0, 0, 0, 0, 0, 0]))
            : undefined;
        const host = [...buffer.subarray(4, 8)].join(".");
        const port = buffer.readUInt16BE(8);
        const rest = buffer.subarray(10);
        client.off("data", onData);
        dial(host, port, socks5.exit).then(
          (upstream) => {
            track(upstream);
            socks5.connections++;
            client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 127, 0, 0, 3, 0, 0]));
            if (rest.length) upstream.write(rest);
            pipeBoth(client, upstream);
          },
          () => client.end(Buffer.from([0x05, 0x05, 0, 1, 0, 0, 0, 0, 0, 0])),
        );
      }
    };
    client.on("data", onData);
  });

  await Promise.all([
    new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", r)),
    new Promise<void>((r) => socksServer.listen(0, "127.0.0.1", r)),
  ]);
  http.url = `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  socks5.url = `socks5://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${(socksServer.address() as AddressInfo).port}`;
  return {
    http,
    socks5,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((r) => httpServer.close(() => r())),
        new Promise<void>((r) => socksServer.close(() => r())),
      ]);
    },
  };
}
