import { Redis } from "ioredis";
import type { JobEvent } from "@authsvc/contracts";
import { JobEventFeed, JobProgress, type StoredJobEvent } from "./job-progress";
import { redisRelay } from "./testing/redis-relay";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `job-progress-test-${process.pid}`;
const redis = new Redis(REDIS_URL);
const subscriber = new Redis(REDIS_URL);
const progress = new JobProgress(redis, PREFIX);
const feed = new JobEventFeed(progress, subscriber);
afterAll(async () => {
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  subscriber.disconnect();
});

let seq = 0;
const newJob = () => `job_test${process.pid}x${++seq}`;
const nothingSettled = async () => null;

async function collect(iterable: AsyncIterable<StoredJobEvent>): Promise<string[]> {
  const types: string[] = [];
  for await (const { event } of iterable) types.push(event.type);
  return types;
}

/** Follows in the background; `received(n)` waits until the follower has been handed `n` events. */
function follower(iterable: AsyncIterable<StoredJobEvent>) {
  const types: string[] = [];
  let ended = false;
  let changed: () => void = () => undefined;
  const done = (async () => {
    try {
      for await (const { event } of iterable) {
        types.push(event.type);
        changed();
      }
      return types;
    } finally {
      ended = true;
      changed();
    }
  })();
  done.catch(() => undefined);
  const received = async (n: number) => {
    while (types.length < n) {
      if (ended) throw new Error(`the feed ended after ${JSON.stringify(types)}`);
      await new Promise<void>((r) => (changed = r));
    }
  };
  return { done, received };
}

describe("JobEventFeed", () => {
  it("gives a late client the history, then follows live to the end, woken by the job's channel", async () => {
    const jobId = newJob();
    await progress.record(jobId, "queued");
    await progress.record(jobId, "started", { attempt: 1 });
    // A recheck far beyond the test's timeout: only the pub/sub wake-up can end it.
    const followed = follower(
      feed.follow(jobId, { signal: new AbortController().signal, settled: nothingSettled, recheckMs: 600_000 }),
    );
    // The history is handed over (the follower subscribed before it read): what comes next is live.
    await followed.received(2);
    await progress.record(jobId, "submitted");
    await progress.record(jobId, "succeeded", { credentialId: "cred_x" });
    await expect(followed.done).resolves.toEqual(["queued", "started", "submitted", "succeeded"]);
  });

  it("reads what was published while its subscriber connection was down, once the connection is back", async () => {
    const relay = await redisRelay(REDIS_URL);
    const ownSubscriber = new Redis(relay.url);
    // The cut makes the connection fail (a write under way ends in EPIPE, a read in ECONNRESET), as a
    // service's connection does; those errors are expected here, as its logger takes them there.
    const errors: string[] = [];
    ownSubscriber.on("error", (err: Error) => errors.push(err.message));
    try {
      const ownFeed = new JobEventFeed(progress, ownSubscriber);
      const jobId = newJob();
      await progress.record(jobId, "queued");
      // Only a wake-up can end it: the recheck is far beyond the test's timeout.
      const followed = follower(
        ownFeed.follow(jobId, { signal: new AbortController().signal, settled: nothingSettled, recheckMs: 600_000 }),
      );
      await followed.received(1);
      // Not events.once: it rejects on the "error" a write cut short emits before the "close".
      const down = new Promise((resolve) => ownSubscriber.once("close", resolve));
      relay.cut();
      await down;
      // Published while nobody listens on the channel: the message is lost, the stream keeps the event.
      await progress.record(jobId, "succeeded");
      relay.restore();
      await expect(followed.done).resolves.toEqual(["queued", "succeeded"]);
    } finally {
      ownSubscriber.disconnect();
      await relay.close();
    }
  });

  it("goes on past a first end that is followed by more (an admin's replay), and resumes after a position", async () => {
    const jobId = newJob();
    await progress.record(jobId, "queued");
    const firstEnd = await progress.record(jobId, "failed", { code: "timeout" });
    await progress.record(jobId, "queued");
    await progress.record(jobId, "succeeded");
    const signal = new AbortController().signal;
    await expect(collect(feed.follow(jobId, { signal, settled: nothingSettled }))).resolves.toEqual([
      "queued",
      "failed",
      "queued",
      "succeeded",
    ]);
    await expect(collect(feed.follow(jobId, { after: firstEnd, signal, settled: nothingSettled }))).resolves.toEqual([
      "queued",
      "succeeded",
    ]);
  });

  it("tells the end from the job's record when its events are gone (expired, or Redis lost them)", async () => {
    const jobId = newJob();
    const end: JobEvent = {
      type: "failed",
      jobId,
      at: new Date().toISOString(),
      error: { code: "timeout", message: "from the record" },
    };
    const events: StoredJobEvent[] = [];
    for await (const entry of feed.follow(jobId, { signal: new AbortController().signal, settled: async () => end }))
      events.push(entry);
    expect(events).toEqual([{ id: "0-1", event: end }]);
  });

  it("stops following when the client goes, and leaves the job's channel", async () => {
    const jobId = newJob();
    await progress.record(jobId, "queued");
    const client = new AbortController();
    const followed = follower(
      feed.follow(jobId, { signal: client.signal, settled: nothingSettled, recheckMs: 60_000 }),
    );
    await followed.received(1);
    client.abort();
    await expect(followed.done).resolves.toEqual(["queued"]);
    const [, subscribers] = (await redis.pubsub("NUMSUB", progress.channel(jobId))) as [string, number];
    expect(subscribers).toBe(0);
  });
});
