import type { AddressInfo } from "node:net";
import { TargetGuard } from "@authsvc/egress";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { createLogger } from "@authsvc/logging";
import { JobWaiter, SessionCache, SingleFlight, createAuthQueue, createRedis, redisReady } from "@authsvc/queue";
import { createApp } from "./app";
import { createGatewayMetrics } from "./http/metrics";
import { LoginService } from "./login/login-service";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger("gateway", config.logLevel);
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion));
  const db = Database.fromConfig(config, 10);
  const redis = createRedis(config.redis.url, "producer", "gateway");
  const eventsRedis = createRedis(config.redis.url, "blocking", "gateway-events");
  await Promise.all([redisReady(redis), db.ping()]);

  const queue = createAuthQueue(redis, config.redis.prefix, { attempts: config.worker.attempts, backoffMs: config.worker.backoffMs });
  const waiter = new JobWaiter(eventsRedis, config.redis.prefix, (jobId) => db.authJobs.isFinished(jobId));
  await waiter.ready();

  const cache = new SessionCache(redis, config.redis.prefix, envelope);
  const guard = new TargetGuard(config.targets.allowRanges);
  const logins = new LoginService({
    config,
    db,
    queue,
    waiter,
    cache,
    flight: new SingleFlight(redis, config.redis.prefix),
    guard,
  });
  let shuttingDown = false;
  const app = createApp({ config, db, redis, logins, cache, guard, log, metrics: createGatewayMetrics(), isShuttingDown: () => shuttingDown });
  const server = app.listen(config.gateway.port, config.gateway.host, () => {
    const { port } = server.address() as AddressInfo;
    log.info({ port }, "gateway listening");
  });
  // Longer than the longest login wait, so that proxies and Node do not cut a waiting request.
  server.requestTimeout = config.gateway.waitMs + 30_000;
  server.headersTimeout = 60_000;

  // Ordered: fail health checks, stop accepting, let in-flight requests answer, then close Redis and the database.
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    log.info({ signal, waiting: waiter.pending }, "shutting down");
    const forced = setTimeout(() => process.exit(1), config.gateway.waitMs + 10_000);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await waiter.close();
    await queue.close();
    await Promise.allSettled([redis.quit(), eventsRedis.quit(), db.close()]);
    clearTimeout(forced);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
