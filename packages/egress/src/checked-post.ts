import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";

export interface CheckedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's first `maxBodyBytes` bytes as text (empty unless asked for). */
  body: string;
}

export interface CheckedRequest {
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Bytes of the body to keep (0: drained unread). */
  maxBodyBytes?: number;
  /** Another port to connect to (a host map's, in tests); the URL, and so the Host header, keep theirs. */
  port?: number;
}

/**
 * Sends one request to `url` connecting only to `addresses` (the ones the target guard resolved and
 * checked): the host name is never looked up again, so it cannot be rebound to a private address between
 * check and connect. TLS still verifies the certificate against the host name. A redirect is an answer like
 * any other (never followed).
 */
export function requestCheckedAddresses(
  url: URL,
  addresses: string[],
  options: CheckedRequest,
): Promise<CheckedAnswer> {
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    const entries = addresses.map((address) => ({ address, family: isIP(address) }));
    if ((lookupOptions as { all?: boolean }).all) (callback as (err: null, all: typeof entries) => void)(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const headers = {
    ...options.headers,
    ...(options.body !== undefined ? { "content-length": String(Buffer.byteLength(options.body)) } : {}),
  };
  const limit = options.maxBodyBytes ?? 0;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: options.method,
        lookup: pinned,
        headers,
        timeout: options.timeoutMs,
        ...(options.port ? { port: options.port, setHost: false } : {}),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          if (kept >= limit) return;
          chunks.push(chunk.subarray(0, limit - kept));
          kept += Math.min(chunk.length, limit - kept);
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    if (options.port) req.setHeader("host", url.host);
    req.on("timeout", () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

/** POSTs `body` to `url` through `requestCheckedAddresses`; resolves with the status, the body drained. */
export async function postToCheckedAddresses(
  url: URL,
  addresses: string[],
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<number> {
  return (await requestCheckedAddresses(url, addresses, { method: "POST", headers, body, timeoutMs })).status;
}
