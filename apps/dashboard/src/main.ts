import type { AddressInfo } from "node:net";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { shutdownOnSignals } from "@authsvc/lifecycle";
import { createLogger } from "@authsvc/logging";
import { createRedis, redisReady } from "@authsvc/queue";
import { LoginRateLimit } from "./accounts/login-rate-limit";
import { createDashboard } from "./app";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger("dashboard", config.logLevel);
  const db = Database.fromConfig(config, 5);
  const redis = createRedis(config.redis.url, "producer", "dashboard");
  await Promise.all([redisReady(redis), db.ping()]);

  let shuttingDown = false;
  const app = createDashboard({
    config,
    db,
    redis,
    log,
    limiter: new LoginRateLimit(redis, config.redis.prefix),
    isShuttingDown: () => shuttingDown,
  });
  const server = app.listen(config.dashboard.port, config.dashboard.host, () => {
    const { port } = server.address() as AddressInfo;
    log.info({ port }, "dashboard listening");
  });

  // Ordered: fail health checks, stop accepting, let requests in flight answer, then close Redis and the database.
  shutdownOnSignals({
    log,
    timeoutMs: 15_000,
    onStart: () => {
      shuttingDown = true;
    },
    stages: [
      [
        {
          name: "http server",
          close: () =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeIdleConnections();
            }),
        },
      ],
      [
        { name: "redis", close: () => redis.quit() },
        { name: "database", close: () => db.close() },
      ],
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`dashboard failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
