import { createServer } from "node:http";
import type { Job } from "bullmq";
import type { AddressInfo } from "node:net";
import { BrowserHost } from "@authsvc/browser";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { TargetGuard } from "@authsvc/egress";
import { twoCaptchaSolver } from "@authsvc/flows";
import { AuthJobs, gateCaps } from "@authsvc/jobs";
import { shutdownOnSignals, waitForDependencies } from "@authsvc/lifecycle";
import { createLogger } from "@authsvc/logging";
import {
  authQueueName,
  closeAuthQueues,
  regionQueue,
  workerRegionsOf,
  type AuthJobPayload,
  HandoffRelay,
  InboxEvents,
  MAINTENANCE_QUEUE,
  WEBHOOK_QUEUE,
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  jobGateOf,
  redisDependency,
  createMaintenanceQueue,
  scheduleMaintenance,
  SessionCache,
  SingleFlight,
} from "@authsvc/queue";
import { createFlowRunner } from "./flows/run-auth-flow";
import { createAuthProcessor, TAKEN_OVER } from "./processors/auth-processor";
import { createWebhookDeliverer } from "./processors/deliver-webhook";
import { gatedProcessor } from "./processors/gated-processor";
import { ProcessSlots } from "./processors/process-slots";
import { createMaintenanceProcessor } from "./processors/maintenance-processor";
import { browserSessionCheck } from "./maintenance/keep-alive";
import { registerProcessors } from "./processors/register-processors";
import { createWorkerMetrics } from "./worker-metrics";
import { boundHeapGrowth } from "./heap-growth";

async function main(): Promise<void> {
  boundHeapGrowth();
  const config = loadConfig();
  const log = createLogger("worker", config.logLevel);
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion));
  const db = Database.fromConfig(config, config.worker.concurrency + 2);
  const workerRedis = createRedis(config.redis, "blocking", "worker", log);
  const redis = createRedis(config.redis, "producer", "worker-cache", log);
  // Subscriber mode takes the connection for itself: one per process, shared by every waiting login.
  const inboxRedis = createRedis(config.redis, "blocking", "worker-inbox", log);
  // The hosted hand-off pages' live views: another subscriber (messages with payloads).
  const handoffRedis = createRedis(config.redis, "blocking", "worker-handoff", log);
  const metrics = createWorkerMetrics();
  // The host map (tests and development only; refused in production) travels with the guard to the egress proxy.
  const guard = new TargetGuard(config.targets.allowRanges, undefined, config.targets.hostMap);
  const browser = new BrowserHost({
    executablePath: config.worker.chromiumPath,
    mode: config.worker.browserMode,
    guard,
    trustedSpki: config.worker.trustedSpki,
    onCrash: (err) => {
      metrics.browserRestarts.inc();
      log.error({ err: err.message }, "Chromium died; it will be relaunched for the next job");
    },
    recycleAfterJobs: config.worker.browserRecycle.afterJobs,
    recycleAboveBytes: config.worker.browserRecycle.aboveBytes,
    onRecycle: ({ jobs, memoryBytes, reason }) => {
      metrics.browserRecycles.inc({ reason });
      log.info(
        { jobs, memoryMiB: Math.round(memoryBytes / 1048576), reason },
        "recycling Chromium: new jobs get a fresh one",
      );
    },
    onEgressRefused: ({ host, reason }) => {
      metrics.egressRefusals.inc();
      log.warn({ host, reason }, "browser connection refused by the egress policy");
    },
  });
  await waitForDependencies(log, [redisDependency(redis), db.dependency()]);
  log.info({ chromium: await browser.warmUp() }, "browser ready");

  const webhookQueue = createWebhookQueue(redis, config.redis.prefix, config.webhooks);
  const authQueue = createAuthQueue(redis, config.redis.prefix, {
    attempts: config.worker.attempts,
    backoffMs: config.worker.backoffMs,
  });
  const maintenanceQueue = createMaintenanceQueue(redis, config.redis.prefix);
  const schedule = {
    keepAliveEveryMs: config.keepAlive.everyMs,
    sweepEveryMs: config.worker.sweepEveryMs,
    statsEveryMs: config.worker.statsEveryMs,
    siteStatsEveryMs: config.worker.siteStatsEveryMs,
  };
  await scheduleMaintenance(maintenanceQueue, schedule);
  // A Redis that restarted without persistence lost the schedulers (and the queues): put them back.
  redis.on("ready", () => {
    scheduleMaintenance(maintenanceQueue, schedule).then(
      () => log.info("Redis is back; maintenance schedules in place"),
      (err: unknown) => log.error({ err: String(err) }, "maintenance schedules not restored"),
    );
  });
  const cache = new SessionCache(redis, config.redis.prefix, envelope);
  const jobs = new AuthJobs({
    config,
    db,
    authQueue,
    cache,
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue,
    log,
    guard,
  });
  // Keep-alive's browser check of a stored session a plain request could not read (an app signed in from storage).
  const inBrowser = browserSessionCheck(browser, guard);
  // Aborted as shutdown starts: a job waiting for a person ends then (handoff_interrupted), so the stop is not held up.
  const stopping = new AbortController();
  const runFlow = createFlowRunner({
    jobs,
    stopping: stopping.signal,
    relay: new HandoffRelay(redis, handoffRedis, config.redis.prefix),
    log,
    config,
    db,
    browser,
    guard,
    metrics,
    inboxEvents: new InboxEvents(inboxRedis, config.redis.prefix),
    flight: new SingleFlight(redis, config.redis.prefix),
    captchaSolver: config.captchaSolver ? twoCaptchaSolver(config.captchaSolver) : undefined,
  });
  // Jobs of no region, and those of each region this worker serves (WORKER_REGIONS): one queue each, and
  // WORKER_CONCURRENCY browser jobs in all.
  const slots = new ProcessSlots(config.worker.concurrency);
  const runAuthJob = createAuthProcessor({ jobs, runFlow, log, metrics });
  const authRegions = [undefined, ...config.worker.regions];
  const authSpecs = authRegions.map((region) => ({
    queue: authQueueName(region),
    concurrency: config.worker.concurrency,
    // Through the org and site concurrency caps first, shared by every worker of the region (see docs/configuration.md).
    process: slots.around(
      gatedProcessor(jobGateOf(regionQueue(authQueue, region), gateCaps(config)), { log, metrics }, runAuthJob),
    ),
    // A fault before the browser ran, or a job that stalled too often because its worker died.
    // (A run another worker took over leaves the record to that worker.)
    onFinalFailure: async (job: Job<AuthJobPayload>, err: Error) =>
      err.message === TAKEN_OVER ? undefined : jobs.abandon(job.data.orgId, job.data.authJobId, err.message),
  }));
  const processors = registerProcessors(
    { connection: workerRedis, prefix: config.redis.prefix, log, metrics, stalls: config.worker },
    [
      ...authSpecs,
      // Webhook deliveries: small HTTP posts, several at once, beside the browser work.
      { queue: WEBHOOK_QUEUE, concurrency: 8, process: createWebhookDeliverer({ db, guard, log }) },
      {
        queue: MAINTENANCE_QUEUE,
        concurrency: 1,
        process: createMaintenanceProcessor({ config, db, jobs, log, checks: { guard, cache, inBrowser } }),
      },
    ],
  );
  slots.attach(processors.workers.slice(0, authSpecs.length));
  // Scraped with the metrics: the depth of the queues this worker takes from, and its Chromium's memory.
  metrics.watch({
    queues: [...authRegions.map((region) => regionQueue(authQueue, region)), webhookQueue, maintenanceQueue],
    browserMemoryBytes: () => browser.memoryBytes(),
  });
  // Said once taking jobs: a start that names one of these regions is queued from now on.
  const regions = workerRegionsOf(authQueue);
  await regions.announce(processors.name, config.worker.regions);

  let healthy = true;
  const health = createServer(async (req, res) => {
    if (req.url === "/metrics") {
      res.writeHead(200, { "content-type": metrics.registry.contentType });
      res.end(await metrics.registry.metrics());
      return;
    }
    const ok = req.url === "/healthz" ? healthy : req.url === "/readyz" ? healthy && processors.running() : null;
    res.writeHead(ok === null ? 404 : ok ? 200 : 503, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: Boolean(ok) }));
  });
  await new Promise<void>((resolve) => health.listen(config.worker.healthPort, "0.0.0.0", resolve));
  log.info(
    {
      healthPort: (health.address() as AddressInfo).port,
      concurrency: config.worker.concurrency,
      regions: config.worker.regions,
    },
    "worker started",
  );

  // Ordered: stop taking jobs and let active ones finish, then the queues, the browser, Redis and the database.
  shutdownOnSignals({
    log,
    timeoutMs: config.worker.shutdownTimeoutMs,
    timeoutMessage:
      "shutdown timed out; exiting with jobs still active (they run again as stalled; those that had submitted end as login_unconfirmed)",
    onStart: () => {
      healthy = false;
      stopping.abort();
    },
    stages: [
      [{ name: "regions", close: () => regions.withdraw() }],
      [{ name: "processors", close: processors.close }],
      [
        { name: "maintenance queue", close: () => maintenanceQueue.close() },
        { name: "webhook queue", close: () => webhookQueue.close() },
        { name: "auth queues", close: () => closeAuthQueues(authQueue) },
      ],
      [{ name: "browser", close: () => browser.close() }],
      [{ name: "health server", close: () => health.close() }],
      [
        {
          name: "redis",
          close: () => Promise.all([workerRedis.quit(), redis.quit(), inboxRedis.quit(), handoffRedis.quit()]),
        },
        { name: "database", close: () => db.close() },
      ],
    ],
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
