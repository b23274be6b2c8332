import type { Express } from "express";
import { Redis } from "ioredis";
import { TargetGuard } from "@authsvc/egress";
import { loadConfig } from "@authsvc/config";
import { openApiDocument } from "@authsvc/contracts";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { REDIS_URL, testStackEnv } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { AuthJobs } from "@authsvc/jobs";
import {
  JobEventFeed,
  JobWaiter,
  SessionCache,
  SingleFlight,
  createAuthQueue,
  createWebhookQueue,
  jobProgressOf,
} from "@authsvc/queue";
import { createApp } from "./app";
import { createGatewayMetrics } from "./http/metrics";
import { VerifiedKeys } from "./http/verified-keys";
import { AuthService } from "./auth/auth-service";

// The document against the routes the real app registers (walked from its router stack, nothing served):
// every public route is documented, every documented operation is served.

/** Served, deliberately not in the document. */
const UNDOCUMENTED = new Map([
  ["GET /metrics", "Prometheus' scrape target, kept off public ingress"],
  ["GET /docs/assets/init.js", "part of the /docs page"],
  ["GET /docs/assets/{}", "part of the /docs page"],
]);

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
}

/** `METHOD /path` of every route, with path parameters written `{}` (Express' `:id`, OpenAPI's `{jobId}`). */
function registeredRoutes(stack: Layer[], prefix = ""): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      return Object.keys(layer.route.methods).map(
        (m) => `${m.toUpperCase()} ${`${prefix}${layer.route!.path}`.replace(/:\w+/g, "{}")}`,
      );
    }
    if (layer.handle.stack)
      return registeredRoutes(
        layer.handle.stack,
        prefix + (layer.rawPath && layer.rawPath !== "/" ? layer.rawPath : ""),
      );
    return [];
  });
}

function documentedOperations(): string[] {
  const base = openApiDocument.servers[0]!.url;
  return Object.entries(openApiDocument.paths).flatMap(([path, item]) => {
    const server = "servers" in item ? item.servers[0]!.url : base;
    const full = `${server === "/" ? "" : server}${path}`.replace(/\{\w+\}/g, "{}");
    return Object.keys(item)
      .filter((k) => ["get", "post", "put", "patch", "delete"].includes(k))
      .map((m) => `${m.toUpperCase()} ${full}`);
  });
}

let app: Express;
const closers: Array<() => Promise<unknown> | void> = [];
beforeAll(() => {
  // Built as app.test.ts builds it; no request is made, so nothing here needs a database.
  const config = loadConfig(testStackEnv("unit_routes", { LOG_LEVEL: "silent" }));
  const db = Database.fromConfig(config, 1);
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: null });
  const events = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: null });
  const subscriber = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: null });
  const log = createLogger("test", "silent");
  const queue = createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 0 });
  const waiter = new JobWaiter(events, config.redis.prefix, (id) => db.authJobs.isSettled(id));
  const cache = new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing)));
  const jobs = new AuthJobs({
    config,
    db,
    authQueue: queue,
    cache,
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue: createWebhookQueue(redis, config.redis.prefix, config.webhooks),
    log,
  });
  const auth = new AuthService({ config, db, jobs, waiter, guard: new TargetGuard() });
  const keys = new VerifiedKeys(db, redis, config.redis.prefix, log);
  app = createApp({
    config,
    db,
    redis,
    auth,
    cache,
    guard: new TargetGuard(),
    log,
    keys,
    metrics: createGatewayMetrics(),
    feed: new JobEventFeed(jobProgressOf(queue), subscriber),
    isShuttingDown: () => false,
  });
  closers.push(
    () => subscriber.disconnect(),
    () => keys.close(),
    () => waiter.close(),
    () => queue.close().catch(() => undefined),
    () => db.close(),
    () => events.disconnect(),
    () => redis.disconnect(),
  );
});
afterAll(async () => {
  for (const close of closers) await close();
});

describe("the OpenAPI document covers the gateway", () => {
  it("documents every route the app serves (but those deliberately left out)", () => {
    const routes = registeredRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack);
    expect(routes).toContain("POST /v1/login"); // the walk reaches the routers mounted under /v1
    const documented = new Set(documentedOperations());
    expect(routes.filter((r) => !documented.has(r) && !UNDOCUMENTED.has(r))).toEqual([]);
  });

  it("serves every documented operation", () => {
    const routes = new Set(registeredRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack));
    expect(documentedOperations().filter((op) => !routes.has(op))).toEqual([]);
  });
});
