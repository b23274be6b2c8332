import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import { Redis } from "ioredis";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { createLogger } from "@authsvc/logging";
import { createRedis, redisReady, type RedisClient } from "@authsvc/queue";
import { redisRelay } from "@authsvc/queue/src/testing/redis-relay";
import { idempotency } from "./idempotency";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `idempotency-test-${process.pid}-${randomBytes(3).toString("hex")}`;
const redis = new Redis(REDIS_URL);
const digestKey = randomBytes(32);
const key = (version: number) => `${version}:${randomBytes(32).toString("base64")}`;
const open: (() => void)[] = [];
// Also after a failed assertion: a server left open would keep jest from exiting.
afterAll(async () => {
  for (const close of open) close();
  await redis.quit();
});

/** A gateway's idempotency layer in front of a route that creates something (as POST /v1/mailboxes does), with its key ring. */
async function gateway(ring: string, active: number, on: RedisClient = redis) {
  let created = 0;
  const app = express();
  app.use(express.json());
  app.use((_req, res, next) => {
    res.locals.orgId = "org_test";
    next();
  });
  app.use(
    "/v1",
    idempotency(
      on,
      prefix,
      digestKey,
      new Envelope(parseKeyRing(ring, active)),
      createLogger("test", "silent"),
      60_000,
    ),
  );
  app.post("/v1/mailboxes", (_req, res) => {
    res.status(201).json({ id: `mb_${++created}` });
  });
  app.use(((err, _req, res, _next) => res.status(500).json({ error: String(err) })) as express.ErrorRequestHandler);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const close = () => {
    server.closeAllConnections();
    server.close();
  };
  open.push(close);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/mailboxes`;
  const post = async (idempotencyKey: string) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": idempotencyKey },
      body: "{}",
    });
    return { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: await res.json() };
  };
  return { post, created: () => created, close };
}

describe("Idempotency-Key: a stored answer sealed with a key the ring no longer has", () => {
  it("runs the retry afresh as the key's first request, never a 500, and replays the new answer after", async () => {
    const v1 = key(1);
    const v2 = key(2);
    const before = await gateway(v1, 1);
    const first = await before.post("retired-key-1");
    expect(first).toMatchObject({ status: 201, replayed: null, body: { id: "mb_1" } });
    expect(await before.post("retired-key-1")).toMatchObject({ status: 201, replayed: "true", body: { id: "mb_1" } });
    before.close();

    // The operator retired key 1: the ring has only key 2.
    const after = await gateway(v2, 2);
    expect(await after.post("retired-key-1")).toEqual({ status: 201, replayed: null, body: { id: "mb_1" } });
    expect(after.created()).toBe(1);
    // The fresh answer is the key's answer from now on.
    expect(await after.post("retired-key-1")).toEqual({ status: 201, replayed: "true", body: { id: "mb_1" } });
    expect(after.created()).toBe(1);
    after.close();
  });
});

describe("Idempotency-Key while Redis fails over", () => {
  it("waits for Redis (REDIS_FAILOVER_WAIT_MS) and runs the request once; its retry is replayed", async () => {
    const relay = await redisRelay(REDIS_URL);
    // The gateway's kind of connection: no offline queue, so a command fails at once while Redis is away.
    const producer = createRedis(
      { url: relay.url, cluster: null, failoverWaitMs: 30_000 },
      "producer",
      "idempotency-failover",
    );
    producer.on("error", () => undefined);
    try {
      await redisReady(producer);
      const app = await gateway(key(1), 1, producer);
      relay.cut();
      const refused = relay.refused();
      const first = app.post("failover-1");
      // The request is in, and the connection has been refused twice since: its Redis calls are failing.
      await relay.refusals(refused + 2);
      expect(app.created()).toBe(0);
      relay.restore();
      expect(await first).toEqual({ status: 201, replayed: null, body: { id: "mb_1" } });
      expect(await app.post("failover-1")).toEqual({ status: 201, replayed: "true", body: { id: "mb_1" } });
      expect(app.created()).toBe(1);
      app.close();
    } finally {
      producer.disconnect();
      await relay.close();
    }
  });
});
