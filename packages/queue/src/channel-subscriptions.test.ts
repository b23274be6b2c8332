import { Redis } from "ioredis";
import { ChannelSubscriptions } from "./channel-subscriptions";
import { redisRelay } from "./testing/redis-relay";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const CHANNEL = `channel-subscriptions-test-${process.pid}`;
const publisher = new Redis(REDIS_URL);
afterAll(() => publisher.disconnect());

const subscribers = async (channel: string) => ((await publisher.pubsub("NUMSUB", channel)) as [string, number])[1];

/** A listener that collects its messages; `next()` resolves with the next one (or one already come). */
function inbox() {
  const messages: string[] = [];
  let missed = 0;
  let arrived: () => void = () => undefined;
  return {
    listener: {
      message: (m: string) => (messages.push(m), arrived()),
      missed: () => (missed++, arrived()),
    },
    messages,
    missed: () => missed,
    /** Until `n` messages have come, or `missed` was called `m` times. */
    until: async (check: () => boolean) => {
      while (!check()) await new Promise<void>((r) => (arrived = r));
    },
  };
}

describe("ChannelSubscriptions", () => {
  it("subscribes a channel asked for during the connection's handshake once it is ready, and its ready check is not refused", async () => {
    const subscriber = new Redis(REDIS_URL);
    const errors: string[] = [];
    subscriber.on("error", (err: Error) => errors.push(err.message));
    try {
      const channels = new ChannelSubscriptions(subscriber);
      // "connect": the TCP connection is up, ioredis' handshake (CLIENT SETINFO, then INFO) is under way.
      await new Promise((resolve) => subscriber.once("connect", resolve));
      const got = inbox();
      await channels.listen(`${CHANNEL}:handshake`, got.listener);
      // A SUBSCRIBE written during the handshake would make its ready check fail and the connection be made
      // again without it: once the connection is ready, the channel must still be subscribed.
      if (subscriber.status !== "ready") await new Promise((resolve) => subscriber.once("ready", resolve));
      await publisher.publish(`${CHANNEL}:handshake`, "hello");
      await got.until(() => got.messages.length === 1);
      expect(got.messages).toEqual(["hello"]);
      // Subscribed once, on the first connection: nothing was missed, and nothing made the connection fail.
      expect(got.missed()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      subscriber.disconnect();
    }
  });

  it("counts its listeners: a channel is left when the last one goes", async () => {
    const subscriber = new Redis(REDIS_URL);
    try {
      const channels = new ChannelSubscriptions(subscriber);
      const [a, b] = [inbox(), inbox()];
      const leaveA = await channels.listen(`${CHANNEL}:count`, a.listener);
      const leaveB = await channels.listen(`${CHANNEL}:count`, b.listener);
      expect(await subscribers(`${CHANNEL}:count`)).toBe(1);
      await publisher.publish(`${CHANNEL}:count`, "both");
      await Promise.all([a.until(() => a.messages.length === 1), b.until(() => b.messages.length === 1)]);
      await leaveA();
      await leaveA(); // twice: no effect on the other listener
      expect(await subscribers(`${CHANNEL}:count`)).toBe(1);
      await leaveB();
      expect(await subscribers(`${CHANNEL}:count`)).toBe(0);
    } finally {
      subscriber.disconnect();
    }
  });

  it("after a cut, subscribes its channels again and tells its listeners they may have missed messages", async () => {
    const relay = await redisRelay(REDIS_URL);
    const subscriber = new Redis(relay.url);
    const errors: string[] = [];
    subscriber.on("error", (err: Error) => errors.push(err.message));
    try {
      const channels = new ChannelSubscriptions(subscriber);
      const got = inbox();
      await channels.listen(`${CHANNEL}:cut`, got.listener);
      const down = new Promise((resolve) => subscriber.once("close", resolve));
      relay.cut();
      await down;
      await publisher.publish(`${CHANNEL}:cut`, "lost");
      relay.restore();
      // Told once the channel is subscribed again: a message published from then on arrives.
      await got.until(() => got.missed() === 1);
      await publisher.publish(`${CHANNEL}:cut`, "after");
      await got.until(() => got.messages.length === 1);
      expect(got.messages).toEqual(["after"]);
    } finally {
      subscriber.disconnect();
      await relay.close();
    }
  });
});
