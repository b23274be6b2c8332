import type { AddressInfo } from "node:net";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { TargetGuard } from "@authsvc/egress";
import { shutdownOnSignals, waitForDependencies } from "@authsvc/lifecycle";
import { createLogger } from "@authsvc/logging";
import { AuthJobs } from "@authsvc/jobs";
import {
  HandoffRelay,
  SessionCache,
  SingleFlight,
  createAuthQueue,
  createMaintenanceQueue,
  createRedis,
  createWebhookQueue,
  redisDependency,
} from "@authsvc/queue";
import { replayThrough } from "./admin/replay-through-jobs";
import { LoginRateLimit } from "./accounts/login-rate-limit";
import { createDashboard } from "./app";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger("dashboard", config.logLevel);
  const db = Database.fromConfig(config, 5);
  const redis = createRedis(config.redis, "producer", "dashboard", log);
  // The hosted hand-off pages' live views: frames from the worker that holds a page (messages with payloads).
  const handoffRedis = createRedis(config.redis, "blocking", "dashboard-handoff", log);
  await waitForDependencies(log, [redisDependency(redis), db.dependency()]);
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion));
  const webhookQueue = createWebhookQueue(redis, config.redis.prefix, config.webhooks);
  const authQueue = createAuthQueue(redis, config.redis.prefix, {
    attempts: config.worker.attempts,
    backoffMs: config.worker.backoffMs,
  });
  const maintenanceQueue = createMaintenanceQueue(redis, config.redis.prefix);
  const cache = new SessionCache(redis, config.redis.prefix, envelope);
  // Replays go through the job's life like any start: its record, single-flight claim, queue and events.
  const jobs = new AuthJobs({
    config,
    db,
    authQueue,
    cache,
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue,
    log,
  });

  let shuttingDown = false;
  const app = createDashboard({
    config,
    db,
    redis,
    log,
    limiter: new LoginRateLimit(redis, config.redis.prefix),
    cache,
    // Webhook addresses are checked as the API checks them (the delivery worker checks again).
    guard: new TargetGuard(config.targets.allowRanges, undefined, config.targets.hostMap),
    webhookQueue,
    queues: [authQueue, webhookQueue, maintenanceQueue],
    replay: replayThrough(jobs),
    isShuttingDown: () => shuttingDown,
    relay: new HandoffRelay(redis, handoffRedis, config.redis.prefix),
    entryLinks: jobs,
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
        { name: "auth queue", close: () => authQueue.close() },
        { name: "webhook queue", close: () => webhookQueue.close() },
        { name: "maintenance queue", close: () => maintenanceQueue.close() },
      ],
      [
        { name: "redis", close: () => Promise.all([redis.quit(), handoffRedis.quit()]) },
        { name: "database", close: () => db.close() },
      ],
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`dashboard failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
