import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { createWorkerMetrics } from "./worker-metrics";

// Not from @authsvc/devstack: importing it loads the fixture sites, seconds this test does not need.
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `worker-metrics-test-${process.pid}`;
const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });

afterAll(async () => {
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("worker metrics", () => {
  it("report at each scrape the depth of the queues the worker takes from, by state, and its Chromium's memory", async () => {
    const queue = new Queue("auth", { connection: redis, prefix: PREFIX });
    try {
      await queue.add("auth", {}, { jobId: "a" });
      await queue.add("auth", {}, { jobId: "b" });
      await queue.add("auth", {}, { jobId: "c", delay: 60_000 });
      const metrics = createWorkerMetrics();
      let memory = 123_456_789;
      metrics.watch({ queues: [queue], browserMemoryBytes: () => memory });
      const text = await metrics.registry.metrics();
      expect(sample(text, 'authsvc_queue_jobs{queue="auth",state="waiting"}')).toBe(2);
      expect(sample(text, 'authsvc_queue_jobs{queue="auth",state="delayed"}')).toBe(1);
      expect(sample(text, 'authsvc_queue_jobs{queue="auth",state="active"}')).toBe(0);
      expect(sample(text, "authsvc_browser_memory_bytes")).toBe(123_456_789);

      // Read again at the next scrape, not kept from the first.
      await queue.remove("a");
      memory = 0;
      const again = await metrics.registry.metrics();
      expect(sample(again, 'authsvc_queue_jobs{queue="auth",state="waiting"}')).toBe(1);
      expect(sample(again, "authsvc_browser_memory_bytes")).toBe(0);
    } finally {
      await queue.close();
    }
  });

  it("still answers a scrape when Redis cannot be read, without the queue numbers", async () => {
    const gone = new Redis("redis://127.0.0.1:1", {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    const queue = new Queue("auth", { connection: gone, prefix: PREFIX });
    queue.on("error", () => undefined);
    try {
      const metrics = createWorkerMetrics();
      metrics.watch({ queues: [queue], browserMemoryBytes: () => 1 });
      const text = await metrics.registry.metrics();
      expect(text).not.toMatch(/^authsvc_queue_jobs\{/m);
      expect(sample(text, "authsvc_browser_memory_bytes")).toBe(1);
    } finally {
      await queue.close().catch(() => undefined);
      gone.disconnect();
    }
  });
});
