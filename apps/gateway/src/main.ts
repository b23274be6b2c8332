import type { AddressInfo } from "node:net";
import { TargetGuard } from "@authsvc/egress";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { shutdownOnSignals, waitForDependencies } from "@authsvc/lifecycle";
import { createLogger } from "@authsvc/logging";
import { AuthJobs } from "@authsvc/jobs";
import {
  JobEventFeed,
  JobWaiter,
  SessionCache,
  SingleFlight,
  closeAuthQueues,
  workerRegionsOf,
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  jobProgressOf,
  redisDependency,
} from "@authsvc/queue";
import { createApp } from "./app";
import { createGatewayMetrics } from "./http/metrics";
import { VerifiedKeys } from "./http/verified-keys";
import { AuthService } from "./auth/auth-service";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger("gateway", config.logLevel);
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion));
  const db = Database.fromConfig(config, 10);
  const redis = createRedis(config.redis, "producer", "gateway", log);
  const eventsRedis = createRedis(config.redis, "blocking", "gateway-events", log);
  // Subscribed to the jobs clients follow (GET /v1/jobs/:id/events); a subscriber connection does nothing else.
  const progressRedis = createRedis(config.redis, "blocking", "gateway-job-progress", log);
  await waitForDependencies(log, [redisDependency(redis), db.dependency()]);

  const queue = createAuthQueue(redis, config.redis.prefix, {
    attempts: config.worker.attempts,
    backoffMs: config.worker.backoffMs,
  });
  // The regions with a worker: a job of one is queued only then, and the waiter listens to their queues too.
  const regions = workerRegionsOf(queue);
  const waiter = new JobWaiter(
    eventsRedis,
    config.redis.prefix,
    (jobId) => db.authJobs.isSettled(jobId),
    (ids) => db.authJobs.settledAmong(ids),
    undefined,
    regions,
  );
  await waiter.ready();

  const feed = new JobEventFeed(jobProgressOf(queue), progressRedis);
  const cache = new SessionCache(redis, config.redis.prefix, envelope);
  // The worker's guard, host map included, so a target the gateway admits is the one the browser reaches.
  const guard = new TargetGuard(config.targets.allowRanges, undefined, config.targets.hostMap);
  const webhookQueue = createWebhookQueue(redis, config.redis.prefix, config.webhooks);
  const jobs = new AuthJobs({
    config,
    db,
    authQueue: queue,
    cache,
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue,
    log,
    guard,
    regions,
  });
  const auth = new AuthService({ config, db, jobs, waiter, guard });
  const keys = new VerifiedKeys(db, redis, config.redis.prefix, log);
  let shuttingDown = false;
  const app = createApp({
    config,
    db,
    redis,
    auth,
    cache,
    guard,
    log,
    keys,
    metrics: createGatewayMetrics(),
    feed,
    isShuttingDown: () => shuttingDown,
  });
  const server = app.listen(config.gateway.port, config.gateway.host, () => {
    const { port } = server.address() as AddressInfo;
    log.info({ port }, "gateway listening");
  });
  // Longer than the longest login wait, so that proxies and Node do not cut a waiting request.
  server.requestTimeout = config.gateway.waitMs + 30_000;
  // An idle keep-alive connection is closed by the client (or the load balancer) first: Node's own 5 s
  // made the gateway close connections that callers were about to reuse (Node's fetch keeps them 4 s, and
  // later under load), and such a request fails with "other side closed" before it reaches us. 65 s is
  // longer than the usual load balancers' 60 s. The headers bound stays above it, as Node requires.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  // Ordered: fail health checks, stop accepting, let in-flight requests answer, then close Redis and the database.
  shutdownOnSignals({
    log,
    timeoutMs: config.gateway.waitMs + 10_000,
    onStart: () => {
      shuttingDown = true;
      // Event streams end now (their clients reconnect elsewhere with Last-Event-ID); the server then closes.
      feed.close();
      log.info({ waiting: waiter.pending }, "answering the requests in flight");
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
      [{ name: "job waiter", close: () => waiter.close() }],
      [
        { name: "auth queues", close: () => closeAuthQueues(queue) },
        { name: "webhook queue", close: () => webhookQueue.close() },
      ],
      [{ name: "API key use", close: () => keys.close() }],
      [
        { name: "redis", close: () => Promise.all([redis.quit(), eventsRedis.quit(), progressRedis.quit()]) },
        { name: "database", close: () => db.close() },
      ],
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
