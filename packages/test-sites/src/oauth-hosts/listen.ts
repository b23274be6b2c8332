import { createHash, createPublicKey } from "node:crypto";
import { createServer as createHttpServer, type RequestListener } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { FIXTURE_TLS_CERT, FIXTURE_TLS_KEY } from "./fixture-cert";

/** The fixture certificate's key as Chromium's --ignore-certificate-errors-spki-list names it (base64 SHA-256 of the SPKI). */
export const FIXTURE_TLS_SPKI = createHash("sha256")
  .update(createPublicKey(FIXTURE_TLS_CERT).export({ type: "spki", format: "der" }))
  .digest("base64");

export interface Listening {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves an app over plain HTTP and TLS on one port, told apart by the first byte (a TLS handshake starts
 * with 0x16): the host map sends a mapped name's ports 80 and 443 to the same fixture port.
 */
export async function listenHttpAndTls(app: RequestListener, host: string, port = 0): Promise<Listening> {
  const http = createHttpServer(app);
  const https = createHttpsServer({ key: FIXTURE_TLS_KEY, cert: FIXTURE_TLS_CERT }, app);
  const sockets = new Set<Socket>();
  const tcp = createTcpServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.once("data", (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? https : http).emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(port, host, () => resolve());
  });
  return {
    port: (tcp.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((r) => tcp.close(() => r()));
    },
  };
}
