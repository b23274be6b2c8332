import { waitFor } from "@authsvc/waiting";
import { Redis } from "ioredis";
import { WorkerRegions } from "./worker-regions";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `worker-regions-test-${process.pid}`;
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });

afterAll(async () => {
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe("WorkerRegions", () => {
  it("knows a region while one of its workers says so, and forgets it when the last one withdraws", async () => {
    const eu1 = new WorkerRegions(redis, PREFIX);
    const eu2 = new WorkerRegions(redis, PREFIX);
    const observer = new WorkerRegions(redis, PREFIX);
    expect(await observer.live()).toEqual([]);
    await eu1.announce("pod-1", ["eu", "us"]);
    await eu2.announce("pod-2", ["eu"]);
    expect(await observer.live()).toEqual(["eu", "us"]);
    await eu1.withdraw();
    expect(await observer.live()).toEqual(["eu"]);
    expect(await observer.has("us")).toBe(false);
    await eu2.withdraw();
    expect(await observer.live()).toEqual([]);
  });

  it("forgets a worker that stopped saying it (it died) once its saying lapses", async () => {
    // Said once, lasting 1 ms, never renewed: as a worker killed right after it started.
    const dead = new WorkerRegions(redis, PREFIX, { everyMs: 3_600_000, lastsMs: 1 });
    await dead.announce("pod-dead", ["ap"]);
    const observer = new WorkerRegions(redis, PREFIX);
    // The lapse is 1 ms: looked at until it has passed (a state, reached within a few ms).
    await waitFor("the lapsed saying forgotten", async () => !(await observer.has("ap")), { everyMs: 5 });
    expect(await observer.live()).toEqual([]);
    expect(await redis.zcard(`${PREFIX}:worker-regions`)).toBe(0);
  });

  it("waits for a region's first worker: true once it comes, false with no wait and none there", async () => {
    const observer = new WorkerRegions(redis, PREFIX);
    expect(await observer.awaitWorker("sa", 0)).toBe(false);
    const coming = new WorkerRegions(redis, PREFIX);
    const waiting = observer.awaitWorker("sa", 60_000);
    await coming.announce("pod-3", ["sa"]);
    expect(await waiting).toBe(true);
    await coming.withdraw();
  });
});
