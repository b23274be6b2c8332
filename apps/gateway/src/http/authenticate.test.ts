import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { Redis } from "ioredis";
import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { REDIS_URL, deleteRedisPrefix, freshTestDatabase } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { announceKeyRevocation } from "@authsvc/queue";
import { authenticate } from "./authenticate";
import { errorHandler } from "./error-handler";
import { OrgRateLimit } from "./rate-limit";
import { VerifiedKeys, type VerifiedKeysOptions } from "./verified-keys";

// Two gateway-like replicas (each its own key cache and Redis connection) over one real Postgres and Redis;
// the dashboard and the CLI revoke in Postgres, then announce on Redis.
let config: ReturnType<typeof loadConfig>;
let db: Database;
let orgId: string;
const log = createLogger("test", "silent");
const opened: Array<() => Promise<void>> = [];

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_keycache", { RATE_LIMIT_PER_MINUTE: "100000" }));
  db = Database.fromConfig(config, 4);
  orgId = (await db.organizations.create("Key cache org")).id;
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((close) => close()));
});
afterAll(async () => {
  await db.close();
  await deleteRedisPrefix(REDIS_URL, config.redis.prefix);
});

async function replica(options: VerifiedKeysOptions = {}) {
  const redis = new Redis(REDIS_URL);
  const keys = new VerifiedKeys(db, redis, config.redis.prefix, log, options);
  const app = express();
  const { identify, admit } = authenticate(
    keys,
    new OrgRateLimit(redis, config.redis.prefix, config.gateway.rateLimitPerMinute),
  );
  app.get("/v1/whoami", identify, admit, (_req, res) => {
    res.json({ orgId: res.locals.orgId });
  });
  app.use(errorHandler(log));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  opened.push(async () => {
    await new Promise((r) => server.close(r));
    await keys.close();
    redis.disconnect();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/whoami`;
  const status = async (key: string) => (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status;
  return { keys, status };
}

const mintKey = async () => db.apiKeys.create(orgId, "test");
// What a revoke by hand in SQL amounts to: nobody tells the gateways.
const unannounced = async () => undefined;
const announce = async (orgId: string) => {
  const announcer = new Redis(REDIS_URL);
  await announceKeyRevocation(announcer, config.redis.prefix, orgId);
  announcer.disconnect();
};

describe("authenticate with VerifiedKeys", () => {
  it("refuses a revoked key at once on every replica that had it cached", async () => {
    const [a, b] = [await replica(), await replica()];
    const { key, apiKey } = await mintKey();
    expect([await a.status(key), await b.status(key)]).toEqual([200, 200]);

    // Revoked in Postgres only: the replicas still trust what they verified (the window the TTL bounds)…
    await db.apiKeys.revoke(apiKey.id, unannounced);
    expect([await a.status(key), await b.status(key)]).toEqual([200, 200]);
    // …until the revocation is announced, as the dashboard and the CLI do.
    await announce(orgId);
    expect([await a.status(key), await b.status(key)]).toEqual([401, 401]);
    expect([await a.status(key), await b.status(key)]).toEqual([401, 401]);
  });

  it("never lets a revoked key through once the announcement is made, with requests in flight on both replicas", async () => {
    const [a, b] = [await replica(), await replica()];
    const { key, apiKey } = await mintKey();
    const other = await mintKey();
    expect([await a.status(key), await b.status(key), await a.status(other.key)]).toEqual([200, 200, 200]);

    let announced = false;
    let revokeFailed = false;
    const afterAnnouncement: number[] = [];
    // The revocation starts once every hammer has had an answer (requests in flight on both replicas), and
    // each hammer goes on until it has sent some requests after the announcement: no pause decides either.
    let answered = 0;
    let allAnswered!: () => void;
    const inFlight = new Promise<void>((r) => (allAnswered = r));
    const hammer = async (r: typeof a) => {
      let sentAfterCount = 0;
      for (let i = 0; i < 60 || (sentAfterCount < 5 && !revokeFailed); i++) {
        const sentAfter = announced;
        const status = await r.status(key);
        if (i === 0 && ++answered === 4) allAnswered();
        if (sentAfter) {
          afterAnnouncement.push(status);
          sentAfterCount++;
        }
      }
    };
    const revoke = (async () => {
      await inFlight;
      await db.apiKeys.revoke(apiKey.id, announce);
      announced = true;
    })().catch((err: unknown) => {
      revokeFailed = true;
      throw err;
    });
    await Promise.all([hammer(a), hammer(b), hammer(a), hammer(b), revoke]);
    expect(afterAnnouncement.length).toBeGreaterThan(0);
    expect(afterAnnouncement.every((s) => s === 401)).toBe(true);
    // Another key of the org is verified again and still works.
    expect([await a.status(other.key), await b.status(other.key)]).toEqual([200, 200]);
  });

  it("does not take a key for a cached one: same public prefix, other secret, or unknown, is 401", async () => {
    const a = await replica();
    const { key } = await mintKey();
    expect(await a.status(key)).toBe(200);
    const last = key.at(-1) === "A" ? "B" : "A";
    expect(await a.status(`${key.slice(0, -1)}${last}`)).toBe(401);
    expect(await a.status(`pk_${"x".repeat(43)}`)).toBe(401);
    expect(await a.status(key)).toBe(200);
  });

  it("keeps no answer about a key that was refused: a key made valid again is taken at once", async () => {
    const a = await replica();
    const { key, apiKey } = await mintKey();
    await db.apiKeys.revoke(apiKey.id, announce);
    expect(await a.status(key)).toBe(401);
    // Only a test un-revokes; what matters is that the refusal was not remembered.
    await db.prisma.apiKey.update({ where: { id: apiKey.id }, data: { revokedAt: null } });
    expect(await a.status(key)).toBe(200);
  });

  it("verifies again after its TTL, so a revocation nobody announced still takes effect", async () => {
    const a = await replica({ ttlMs: 300 });
    const { key, apiKey } = await mintKey();
    expect(await a.status(key)).toBe(200);
    // The key was put in the cache before this moment, so its entry has expired once the clock passes this + TTL.
    const cachedBy = Date.now();
    await db.apiKeys.revoke(apiKey.id, unannounced);
    while (Date.now() <= cachedBy + 300) await new Promise((r) => setTimeout(r, cachedBy + 301 - Date.now()));
    expect(await a.status(key)).toBe(401);
  });

  it("writes lastUsedAt in batches, not per request", async () => {
    const a = await replica({ flushEveryMs: 3_600_000 });
    const { key, apiKey } = await mintKey();
    for (let i = 0; i < 5; i++) expect(await a.status(key)).toBe(200);
    const lastUsed = async () => (await db.apiKeys.list(orgId)).find((k) => k.id === apiKey.id)!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await a.keys.flush();
    expect(await lastUsed()).toBeInstanceOf(Date);
  });
});
