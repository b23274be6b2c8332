import { connect, isIPv6, type Socket } from "node:net";

/** An organization's egress proxy a job's browser leaves through (its URL decrypted only in the worker). */
export interface UpstreamProxy {
  /** `http://user:pass@host:port` or `socks5://user:pass@host:port`. */
  url: string;
}

/** Why a connection through the upstream proxy failed: the proxy's fault, never the site's. */
export class ProxyFailure extends Error {
  constructor(
    readonly code: "proxy_unreachable" | "proxy_auth_failed",
    message: string,
  ) {
    super(message);
  }
}

const CONNECT_TIMEOUT_MS = 10_000;

/** The proxy's address as `host:port`, without its credentials: what messages and logs may name. */
export function proxyAddress(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}

function openSocket(host: string, port: number, what: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error("connect timeout")), CONNECT_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(new ProxyFailure("proxy_unreachable", `the proxy ${what} did not answer: ${err.message}`));
    });
  });
}

/** Reads from the socket until `done` says the reply is whole; the bytes after it stay unread. */
function readReply(socket: Socket, done: (buffer: Buffer) => number | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error("no reply in time")), CONNECT_TIMEOUT_MS);
    const finish = (err: Error | null, reply?: Buffer) => {
      clearTimeout(timer);
      socket.off("data", onData);
      socket.off("error", finish);
      socket.off("close", onClose);
      if (err) reject(err);
      else resolve(reply!);
    };
    const onClose = () => finish(new Error("closed the connection"));
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const length = done(buffer);
      if (length === null) return;
      const rest = buffer.subarray(length);
      if (rest.length) socket.unshift(rest);
      finish(null, buffer.subarray(0, length));
    };
    socket.on("data", onData);
    socket.once("error", finish);
    socket.once("close", onClose);
  });
}

/**
 * Opens a connection to `address:port` (an address the target guard checked: the proxy is never asked to
 * resolve a name) through the upstream proxy: an HTTP proxy's CONNECT with Basic credentials, or SOCKS5
 * with username and password (RFC 1928, 1929). Throws ProxyFailure: `proxy_auth_failed` when the proxy
 * refuses the credentials, `proxy_unreachable` when it cannot be reached or cannot reach the target.
 */
export async function connectVia(upstream: UpstreamProxy, address: string, port: number): Promise<Socket> {
  const u = new URL(upstream.url);
  const where = proxyAddress(upstream.url);
  const proxyPort = Number(u.port || (u.protocol === "socks5:" ? 1080 : 8080));
  const socket = await openSocket(u.hostname.replace(/^\[|\]$/g, ""), proxyPort, where);
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  try {
    if (u.protocol === "http:") {
      const authority = isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
      const auth =
        user || pass ? `Proxy-Authorization: Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}\r\n` : "";
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
      const head = await readReply(socket, (b) => {
        const end = b.indexOf("\r\n\r\n");
        return end < 0 ? null : end + 4;
      });
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString("latin1"))?.[1] ?? 0);
      if (status === 407)
        throw new ProxyFailure("proxy_auth_failed", `the proxy ${where} refused its credentials (407)`);
      if (status !== 200)
        throw new ProxyFailure(
          "proxy_unreachable",
          `the proxy ${where} did not open a tunnel to the site (${status || "no status"})`,
        );
      return socket;
    }
    if (u.protocol === "socks5:") {
      const methods = user || pass ? [0x00, 0x02] : [0x00];
      socket.write(Buffer.from([0x05, methods.length, ...methods]));
      const [, method] = await readReply(socket, (b) => (b.length >= 2 ? 2 : null));
      if (method === 0x02) {
        const name = Buffer.from(user);
        const word = Buffer.from(pass);
        socket.write(Buffer.concat([Buffer.from([0x01, name.length]), name, Buffer.from([word.length]), word]));
        const [, status] = await readReply(socket, (b) => (b.length >= 2 ? 2 : null));
        if (status !== 0x00)
          throw new ProxyFailure("proxy_auth_failed", `the proxy ${where} refused its credentials (SOCKS5)`);
      } else if (method !== 0x00) {
        throw new ProxyFailure(
          method === 0xff && (user || pass) ? "proxy_auth_failed" : "proxy_unreachable",
          `the proxy ${where} accepted none of our SOCKS5 ways to sign in`,
        );
      }
      const v6 = isIPv6(address);
      const hostBytes = v6 ? ipv6Bytes(address) : Buffer.from(address.split(".").map(Number));
      const portBytes = Buffer.from([port >> 8, port & 0xff]);
      socket.write(Buffer.concat([Buffer.from([0x05, 0x01, 0x00, v6 ? 0x04 : 0x01]), hostBytes, portBytes]));
      const reply = await readReply(socket, (b) => {
        if (b.length < 5) return null;
        const len = b[3] === 0x01 ? 4 : b[3] === 0x04 ? 16 : 1 + b[4]!;
        return b.length >= 4 + len + 2 ? 4 + len + 2 : null;
      });
      if (reply[1] !== 0x00)
        throw new ProxyFailure(
          "proxy_unreachable",
          `the proxy ${where} could not reach the site (SOCKS5 reply ${reply[1]})`,
        );
      return socket;
    }
    throw new ProxyFailure("proxy_unreachable", `the proxy ${where} has a scheme we do not speak`);
  } catch (err) {
    socket.destroy();
    if (err instanceof ProxyFailure) throw err;
    throw new ProxyFailure("proxy_unreachable", `the proxy ${where} ${(err as Error).message}`);
  }
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ""] = address.split("::");
  const groups = (s: string) => (s ? s.split(":") : []);
  const h = groups(head!);
  const t = groups(tail);
  const all = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return Buffer.from(all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}
