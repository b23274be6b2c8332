import { Redis } from "ioredis";
import { InboxEvents, inboxChannel, notifyInbox } from "./inbox-events";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `inbox-events-test-${process.pid}`;
const publisher = new Redis(REDIS_URL);
const subscriber = new Redis(REDIS_URL);
const events = new InboxEvents(subscriber, PREFIX);
afterAll(() => {
  publisher.disconnect();
  subscriber.disconnect();
});

const subscribers = async (inboxId: string) =>
  ((await publisher.pubsub("NUMSUB", inboxChannel(PREFIX, inboxId))) as [string, number])[1];

describe("InboxEvents", () => {
  it("wakes every watcher of an inbox, even for a message published before it waited", async () => {
    const a = await events.watch("mbx_a");
    const b = await events.watch("mbx_a");
    const other = await events.watch("mbx_other");
    // Delivered before anyone waits: this listener comes after the watchers', so they have all seen it when it does.
    const delivered = new Promise<void>((resolve) => {
      const seen = (channel: string) => {
        if (channel !== inboxChannel(PREFIX, "mbx_a")) return;
        subscriber.off("message", seen);
        resolve();
      };
      subscriber.on("message", seen);
    });
    await notifyInbox(publisher, PREFIX, "mbx_a", "msg_1");
    await delivered;
    // The bounds only stop a broken wake-up from hanging the test; a delivered message answers at once.
    await expect(Promise.all([a.next(30_000), b.next(30_000)])).resolves.toEqual([true, true]);
    // The message has been handed to every watcher: another inbox's watcher got nothing, and does not wait.
    await expect(other.next(0)).resolves.toBe(false);
    await Promise.all([a.close(), b.close(), other.close()]);
  });

  it("times out without a message, and leaves the channel when its last watcher closes", async () => {
    const first = await events.watch("mbx_b");
    const second = await events.watch("mbx_b");
    expect(await subscribers("mbx_b")).toBe(1);
    await expect(first.next(100)).resolves.toBe(false);
    await first.close();
    expect(await subscribers("mbx_b")).toBe(1);
    const woken = second.next(30_000);
    await notifyInbox(publisher, PREFIX, "mbx_b", "msg_2");
    await expect(woken).resolves.toBe(true);
    await second.close();
    expect(await subscribers("mbx_b")).toBe(0);
  });
});
