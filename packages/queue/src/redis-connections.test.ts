import { randomBytes } from "node:crypto";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import type { CapturedSession } from "@authsvc/contracts";
import { createRedis, isRedisUnavailable, redisReady, type RedisClient } from "./redis-connections";
import { SessionCache } from "./session-cache";
import { redisRelay, type RedisRelay } from "./testing/redis-relay";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `redis-connections-test-${process.pid}`;
const envelope = new Envelope(parseKeyRing(`1:${randomBytes(32).toString("base64")}`));
const session: CapturedSession = {
  cookies: [
    {
      name: "sid",
      value: "s1",
      domain: "shop.example",
      path: "/",
      expires: -1,
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
    },
  ],
  origins: ["https://shop.example"],
  storageState: { cookies: [], origins: [] },
};

const opened: Array<{ relay: RedisRelay; redis: RedisClient }> = [];
afterAll(async () => {
  for (const { relay, redis } of opened) {
    redis.disconnect();
    await relay.close();
  }
  const direct = createRedis(REDIS_URL, "blocking", "cleanup");
  const keys = await direct.keys(`${PREFIX}:*`);
  if (keys.length) await direct.del(...keys);
  direct.disconnect();
});

/** A producer connection (the gateway's kind: no offline queue) through a relay that can be cut, made with `failoverWaitMs`. */
async function producerThroughRelay(failoverWaitMs: number) {
  const relay = await redisRelay(REDIS_URL);
  const redis = createRedis({ url: relay.url, cluster: null, failoverWaitMs }, "producer", "relay-test");
  redis.on("error", () => undefined);
  opened.push({ relay, redis });
  await redisReady(redis);
  return { relay, redis, cache: new SessionCache(redis, PREFIX, envelope) };
}

describe("ridingFailover: a connection's calls wait out Redis failing over, as long as the connection was made to", () => {
  it("answers a cached-session read and write made while Redis is away once it is back, within the wait", async () => {
    const { relay, redis, cache } = await producerThroughRelay(30_000);
    await cache.set("org_1", "fp-ride", session, 600);
    relay.cut();
    // While the relay refuses, the producer's commands fail at once (no offline queue): only the ride keeps the caller waiting.
    const read = cache.get("org_1", "fp-ride");
    const write = cache.set("org_1", "fp-ride-2", session, 600);
    // Refused twice more: the client is trying to reconnect, its callers' commands failing meanwhile.
    await relay.refusals(relay.refused() + 2);
    expect(redis.status).not.toBe("ready");
    relay.restore();
    expect((await read)!.session.cookies[0]!.value).toBe("s1");
    await write;
    expect(await cache.ttlSeconds("org_1", "fp-ride-2")).toBeGreaterThan(590);
  });

  it("gives the caller the unavailable error once the wait runs out", async () => {
    const { relay, cache } = await producerThroughRelay(300);
    relay.cut();
    const err = await cache.get("org_1", "fp-gone").then(
      () => null,
      (e: unknown) => e,
    );
    expect(isRedisUnavailable(err)).toBe(true);
    relay.restore();
  });
});
