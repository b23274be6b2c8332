import { once } from "node:events";
import { createServer, connect, type Socket } from "node:net";

export interface RedisRelay {
  url: string;
  /** Drops the relay's connections and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  /** Connections refused since the relay was made: a client trying to reconnect while cut. */
  refused(): number;
  /** Resolves once `count` connections in all have been refused. */
  refusals(count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP relay to the Redis at `redisUrl` that can be cut, as a network that loses a connection for a while does,
 * or a Redis failing over (its clients' connections closed, new ones refused until it is back).
 */
export async function redisRelay(redisUrl: string): Promise<RedisRelay> {
  const target = new URL(redisUrl);
  const live = new Set<Socket>();
  let held = false;
  let refused = 0;
  const waiting = new Set<{ count: number; resolve: () => void }>();
  const server = createServer((client) => {
    if (held) {
      refused++;
      for (const w of waiting) {
        if (refused < w.count) continue;
        waiting.delete(w);
        w.resolve();
      }
      return client.destroy();
    }
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      live.add(a);
      a.pipe(b);
      a.on("error", () => b.destroy());
      a.on("close", () => (live.delete(a), b.destroy()));
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () => {
      held = true;
      for (const socket of live) socket.destroy();
    },
    restore: () => {
      held = false;
    },
    refused: () => refused,
    refusals: (count) =>
      new Promise<void>((resolve) => (refused >= count ? resolve() : waiting.add({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
