import type { Redis } from "ioredis";

/**
 * Redis pub/sub channel of one inbox (a mailbox or phone number id). mail-in and the SMS webhook publish
 * the new message's id on it; a flow waiting for a code subscribes, so it wakes at once instead of polling.
 */
export function inboxChannel(prefix: string, inboxId: string): string {
  return `${prefix}:inbox:${inboxId}`;
}

/** Tells waiting flows that `inboxId` received a message. The message itself stays in Postgres. */
export async function notifyInbox(redis: Redis, prefix: string, inboxId: string, messageId: string): Promise<void> {
  await redis.publish(inboxChannel(prefix, inboxId), messageId);
}

/**
 * One subscriber connection per process, shared by every wait: `wait` resolves when the inbox's channel
 * carries a message, or after `ms`. Subscriptions are counted, so a channel is left when its last waiter goes.
 */
export class InboxEvents {
  private readonly waiters = new Map<string, Set<() => void>>();
  /** The SUBSCRIBE of each channel in use; every watcher waits for it before it reads the inbox. */
  private readonly subscribed = new Map<string, Promise<unknown>>();

  constructor(
    private readonly subscriber: Redis,
    private readonly prefix: string,
  ) {
    subscriber.on("message", (channel: string) => {
      for (const wake of this.waiters.get(channel) ?? []) wake();
    });
  }

  /**
   * Subscribes to the inbox and returns a waiter. Subscribe before reading the inbox, then `next(ms)`:
   * a message stored between the read and the wait still wakes it.
   */
  async watch(inboxId: string): Promise<{ next(ms: number): Promise<boolean>; close(): Promise<void> }> {
    const channel = inboxChannel(this.prefix, inboxId);
    let pending = false;
    let wake: (() => void) | null = null;
    const listener = () => {
      pending = true;
      wake?.();
    };
    let set = this.waiters.get(channel);
    if (!set) {
      set = new Set();
      this.waiters.set(channel, set);
    }
    set.add(listener);
    if (!this.subscribed.has(channel)) this.subscribed.set(channel, this.subscriber.subscribe(channel));
    try {
      await this.subscribed.get(channel);
    } catch (err) {
      // Not subscribed: forget the attempt, so the next watcher tries again.
      set.delete(listener);
      if (set.size === 0) this.waiters.delete(channel);
      this.subscribed.delete(channel);
      throw err;
    }
    return {
      next: (ms: number) =>
        new Promise<boolean>((resolve) => {
          if (pending) {
            pending = false;
            return resolve(true);
          }
          const timer = setTimeout(() => {
            wake = null;
            resolve(false);
          }, ms);
          wake = () => {
            clearTimeout(timer);
            wake = null;
            pending = false;
            resolve(true);
          };
        }),
      close: async () => {
        set!.delete(listener);
        if (set!.size === 0) {
          this.waiters.delete(channel);
          this.subscribed.delete(channel);
          await this.subscriber.unsubscribe(channel).catch(() => undefined);
        }
      },
    };
  }
}
