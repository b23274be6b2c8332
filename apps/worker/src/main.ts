import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "bullmq";
import { BrowserHost, TargetGuard } from "@authsvc/browser";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { createLogger } from "@authsvc/logging";
import { AUTH_QUEUE, InboxEvents, KEEPALIVE_JOB, MAINTENANCE_QUEUE, createAuthQueue, WEBHOOK_QUEUE, createWebhookQueue, SessionCache, SingleFlight, createRedis, redisReady, scheduleRetention, type AuthJobPayload } from "@authsvc/queue";
import { createLoginProcessor, recordAbandonedJob } from "./process-login-job";
import { createWebhookDeliverer } from "./webhook-events";
import { keepAlive } from "./keep-alive";
import { sweepRetention } from "./sweep-retention";
import { createWorkerMetrics } from "./worker-metrics";

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger("worker", config.logLevel);
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion));
  const db = Database.fromConfig(config, config.worker.concurrency + 2);
  const workerRedis = createRedis(config.redis.url, "blocking", "worker");
  const redis = createRedis(config.redis.url, "producer", "worker-cache");
  // Subscriber mode takes the connection for itself: one per process, shared by every waiting login.
  const inboxRedis = createRedis(config.redis.url, "blocking", "worker-inbox");
  const metrics = createWorkerMetrics();
  const guard = new TargetGuard(config.targets.allowRanges);
  const browser = new BrowserHost({
    executablePath: config.worker.chromiumPath,
    guard,
    onCrash: (err) => {
      metrics.browserRestarts.inc();
      log.error({ err: err.message }, "Chromium died; it will be relaunched for the next job");
    },
    onEgressRefused: ({ host, reason }) => {
      metrics.egressRefusals.inc();
      log.warn({ host, reason }, "browser connection refused by the egress policy");
    },
  });
  await Promise.all([redisReady(redis), db.ping()]);
  log.info({ chromium: await browser.warmUp() }, "browser ready");

  const flight = new SingleFlight(redis, config.redis.prefix);
  const webhookQueue = createWebhookQueue(redis, config.redis.prefix, config.webhooks);
  const processor = createLoginProcessor({
    config,
    db,
    browser,
    cache: new SessionCache(redis, config.redis.prefix, envelope),
    flight,
    guard,
    log,
    metrics,
    inboxEvents: new InboxEvents(inboxRedis, config.redis.prefix),
    webhookQueue,
  });
  const worker = new Worker<AuthJobPayload>(AUTH_QUEUE, processor, {
    connection: workerRedis,
    prefix: config.redis.prefix,
    concurrency: config.worker.concurrency,
  });
  worker.on("error", (err) => log.error({ err: err.message }, "worker error"));
  worker.on("stalled", (jobId) => log.warn({ jobId }, "job stalled; it will run again"));
  worker.on("failed", (job, err) => {
    const final = err.name === "UnrecoverableError" || (job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1));
    if (!job || !final) return;
    recordAbandonedJob({ db, flight }, job, err.message).catch((e) => log.error({ jobId: job.id, err: String(e) }, "could not end an abandoned job"));
  });

  // Webhook deliveries: small HTTP posts, several at once, beside the browser work.
  const webhooks = new Worker(WEBHOOK_QUEUE, createWebhookDeliverer({ db, guard, log }), {
    connection: workerRedis,
    prefix: config.redis.prefix,
    concurrency: 8,
  });
  webhooks.on("error", (err) => log.error({ err: err.message }, "webhook worker error"));

  const maintenanceQueue = await scheduleRetention(redis, config.redis.prefix, config.keepAlive.everyMs);
  const authQueue = createAuthQueue(redis, config.redis.prefix, { attempts: config.worker.attempts, backoffMs: config.worker.backoffMs });
  const maintenance = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      if (job.name === KEEPALIVE_JOB) return keepAlive({ config, db, authQueue, webhookQueue, flight, log });
      const deleted = await sweepRetention(db, config.retention);
      log.info({ deleted }, "retention sweep");
      return deleted;
    },
    { connection: workerRedis, prefix: config.redis.prefix, concurrency: 1 },
  );
  maintenance.on("error", (err) => log.error({ err: err.message }, "maintenance worker error"));

  let healthy = true;
  const health = createServer(async (req, res) => {
    if (req.url === "/metrics") {
      res.writeHead(200, { "content-type": metrics.registry.contentType });
      res.end(await metrics.registry.metrics());
      return;
    }
    const ok = req.url === "/healthz" ? healthy : req.url === "/readyz" ? healthy && worker.isRunning() : null;
    res.writeHead(ok === null ? 404 : ok ? 200 : 503, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: Boolean(ok) }));
  });
  await new Promise<void>((resolve) => health.listen(config.worker.healthPort, "0.0.0.0", resolve));
  log.info({ healthPort: (health.address() as AddressInfo).port, concurrency: config.worker.concurrency }, "worker started");

  // Ordered: stop taking jobs and let active ones finish, then the browser, Redis and the database.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    healthy = false;
    log.info({ signal }, "shutting down: finishing active jobs");
    const forced = setTimeout(() => {
      log.error("shutdown timed out; exiting with jobs still active (they run again as stalled; those that had submitted end as login_unconfirmed)");
      process.exit(1);
    }, config.worker.shutdownTimeoutMs);
    await Promise.all([worker.close(), maintenance.close(), webhooks.close()]);
    await Promise.all([maintenanceQueue.close(), webhookQueue.close(), authQueue.close()]);
    await browser.close();
    health.close();
    await Promise.allSettled([workerRedis.quit(), redis.quit(), inboxRedis.quit(), db.close()]);
    clearTimeout(forced);
    log.info("worker stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
