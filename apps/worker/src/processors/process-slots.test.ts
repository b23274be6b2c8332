import { Queue, Worker } from "bullmq";
import { createRedis, queuePrefix } from "@authsvc/queue";
import { ProcessSlots } from "./process-slots";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `process-slots-test-${process.pid}`;
const producer = createRedis(REDIS_URL, "producer", "process-slots-test");
const blocking = [
  createRedis(REDIS_URL, "blocking", "process-slots-a"),
  createRedis(REDIS_URL, "blocking", "process-slots-b"),
];
const queues = ["auth", "auth-eu"].map(
  (name) => new Queue(name, { connection: producer, prefix: queuePrefix(PREFIX, name) }),
);

afterAll(async () => {
  for (const q of queues) await q.obliterate({ force: true });
  await Promise.all(queues.map((q) => q.close()));
  for (const c of [producer, ...blocking]) c.disconnect();
});

describe("ProcessSlots", () => {
  it("runs no more jobs at once across two queues than the process's concurrency, and runs them all", async () => {
    const slots = new ProcessSlots(2);
    let running = 0;
    let most = 0;
    const finished = new Set<string>();
    const workers: Worker[] = [];
    const allDone = new Promise<void>((resolve) => {
      const process = slots.around(async (job) => {
        running++;
        most = Math.max(most, running);
        // Held until a third job runs beside it (the slots are broken) or 100 ms passed: without the slots the
        // two queues' workers (concurrency 2 each) would run 4 at once, and `most` would say so.
        for (let waited = 0; waited < 100 && running < 3; waited += 5) await new Promise((r) => setTimeout(r, 5));
        running--;
        finished.add(`${job.queueName}:${job.id}`);
        if (finished.size === 6) resolve();
      });
      workers.push(
        ...queues.map(
          (q, i) => new Worker(q.name, process, { connection: blocking[i]!, prefix: q.opts.prefix, concurrency: 2 }),
        ),
      );
    });
    slots.attach(workers);
    try {
      for (let i = 0; i < 6; i++) await queues[i % 2]!.add("job", {});
      await allDone;
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(2);
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });
});
