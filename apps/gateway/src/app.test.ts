import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Redis } from "ioredis";
import { TargetGuard } from "@authsvc/egress";
import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { Database } from "@authsvc/db";
import { REDIS_URL, deleteRedisPrefix, freshTestDatabase } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { AuthJobs } from "@authsvc/jobs";
import {
  JobEventFeed,
  JobWaiter,
  SessionCache,
  jobProgressOf,
  SingleFlight,
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  redisReady,
  type RedisClient,
} from "@authsvc/queue";
import { createApp } from "./app";
import { createGatewayMetrics } from "./http/metrics";
import { VerifiedKeys } from "./http/verified-keys";
import { AuthService } from "./auth/auth-service";

// The real gateway app in-process, with a real database: here to reach the answers the shared
// end-to-end stack cannot (a tiny rate limit, a Redis that is gone).
let config: ReturnType<typeof loadConfig>;
let db: Database;
let key: string;

beforeAll(async () => {
  config = loadConfig(
    await freshTestDatabase("unit_gateway", { RATE_LIMIT_PER_MINUTE: "3", REDIS_FAILOVER_WAIT_MS: "500" }),
  );
  db = Database.fromConfig(config, 2);
  const org = await db.organizations.create("Gateway org");
  ({ key } = await db.apiKeys.create(org.id, "test"));
});
afterAll(async () => {
  await db.close();
  await deleteRedisPrefix(REDIS_URL, config.redis.prefix);
});

async function serve(redis: RedisClient, body: (url: string) => Promise<void>): Promise<void> {
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing));
  const events = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const subscriber = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 0 });
  const waiter = new JobWaiter(events, config.redis.prefix, (id) => db.authJobs.isSettled(id));
  const cache = new SessionCache(redis, config.redis.prefix, envelope);
  const jobs = new AuthJobs({
    config,
    db,
    authQueue: queue,
    cache,
    flight: new SingleFlight(redis, config.redis.prefix),
    webhookQueue: createWebhookQueue(redis, config.redis.prefix, config.webhooks),
    log: createLogger("test", "silent"),
  });
  const auth = new AuthService({ config, db, jobs, waiter, guard: new TargetGuard() });
  const keys = new VerifiedKeys(db, redis, config.redis.prefix, createLogger("test", "silent"));
  const app = createApp({
    config,
    db,
    redis,
    auth,
    cache,
    guard: new TargetGuard(),
    log: createLogger("test", "silent"),
    keys,
    metrics: createGatewayMetrics(),
    feed: new JobEventFeed(jobProgressOf(queue), subscriber),
    isShuttingDown: () => false,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((r) => server.close(r));
    await keys.close();
    await waiter.close();
    await queue.close().catch(() => undefined);
    events.disconnect();
    subscriber.disconnect();
    redis.disconnect();
  }
}

const post = (url: string, body: unknown) =>
  fetch(`${url}/v1/login`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("gateway app", () => {
  it("answers 429 rate_limited with Retry-After past the organization's limit", async () => {
    const redis = createRedis(REDIS_URL, "producer", "test");
    await redisReady(redis); // as the gateway does before it listens
    await serve(redis, async (url) => {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await post(url, {})).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const limited = await post(url, {});
      const body = (await limited.json()) as { error: { code: string; requestId: string } };
      expect(body.error).toMatchObject({ code: "rate_limited", requestId: expect.stringMatching(/^req_/) });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    });
  });

  it("answers 503 service_unavailable, not 500, when Redis is gone for longer than REDIS_FAILOVER_WAIT_MS", async () => {
    const gone = createRedis(
      { url: "redis://127.0.0.1:1", cluster: null, failoverWaitMs: config.redis.failoverWaitMs },
      "producer",
      "gone",
    );
    gone.on("error", () => undefined);
    await serve(gone, async (url) => {
      const res = await post(url, {
        domain: "https://example.com/login",
        login_method: "password",
        cred: { username: "u", password: "p" },
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("service_unavailable");
      expect(res.headers.get("retry-after")).toBe("5");
      const ready = await fetch(`${url}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([503, { ok: false, database: true, redis: false }]);
    });
  });
});
