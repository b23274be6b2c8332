import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";

/**
 * POSTs to `url` connecting only to `addresses` (the ones the target guard resolved and checked): the host
 * name is never looked up again, so it cannot be rebound to a private address between check and connect.
 * TLS still verifies the certificate against the host name. Resolves with the status; the body is drained.
 */
export function postToCheckedAddresses(url: URL, addresses: string[], headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
  const pinned: LookupFunction = (_host, options, callback) => {
    const entries = addresses.map((address) => ({ address, family: isIP(address) }));
    if ((options as { all?: boolean }).all) (callback as (err: null, all: typeof entries) => void)(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: "POST", lookup: pinned, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) }, timeout: timeoutMs }, (res: IncomingMessage) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}
