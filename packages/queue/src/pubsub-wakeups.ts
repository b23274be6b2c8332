import { ChannelSubscriptions } from "./channel-subscriptions";
import type { RedisClient } from "./redis-connections";

export interface Wakeup {
  /** True when the channel carried a message since the last call (or within `ms`), false after `ms`. */
  next(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * One subscriber connection per process, shared by every watcher of every channel: a thousand waits cost
 * one Redis connection. Messages are only wake-ups; what happened is read from where it is kept (Postgres,
 * a Redis stream), so a watcher subscribes first, then reads, then waits: a message published in between
 * still wakes it. What was published while the connection was down is lost: once it is back and the channel
 * subscribed again, every watcher is woken to read what it missed (`ChannelSubscriptions`). (On a Cluster the
 * subscriber is a connection of its own, so that is only a wake-up sooner; the watchers' own rechecks cover the rest.)
 */
export class PubSubWakeups {
  private readonly channels: ChannelSubscriptions;

  constructor(subscriber: RedisClient) {
    this.channels = new ChannelSubscriptions(subscriber);
  }

  async watch(channel: string): Promise<Wakeup> {
    let pending = false;
    let wake: (() => void) | null = null;
    let giveUp: (() => void) | null = null;
    const woken = () => {
      pending = true;
      wake?.();
    };
    const leave = await this.channels.listen(channel, { message: woken, missed: woken });
    return {
      next: (ms: number) =>
        new Promise<boolean>((resolve) => {
          if (pending) {
            pending = false;
            return resolve(true);
          }
          const timer = setTimeout(() => {
            wake = null;
            giveUp = null;
            resolve(false);
          }, ms);
          wake = () => {
            clearTimeout(timer);
            wake = null;
            giveUp = null;
            pending = false;
            resolve(true);
          };
          giveUp = () => {
            clearTimeout(timer);
            wake = null;
            giveUp = null;
            resolve(false);
          };
        }),
      close: async () => {
        // A wait still pending ends now (false): its timer would otherwise outlive the watcher.
        giveUp?.();
        await leave();
      },
    };
  }
}
