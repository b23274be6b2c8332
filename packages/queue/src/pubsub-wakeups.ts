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
 * still wakes it. Subscriptions are counted, so a channel is left when its last watcher goes.
 */
export class PubSubWakeups {
  private readonly waiters = new Map<string, Set<() => void>>();
  /** The SUBSCRIBE of each channel in use; every watcher waits for it before it reads. */
  private readonly subscribed = new Map<string, Promise<unknown>>();

  constructor(private readonly subscriber: RedisClient) {
    subscriber.on("message", (channel: string) => {
      for (const wake of this.waiters.get(channel) ?? []) wake();
    });
    // What was published while the connection was down is lost: once it is back and subscribed again, every
    // watcher is woken to read what it missed. ioredis sends its SUBSCRIBEs again right after "ready"; a PING
    // sent after them is answered once they are in. (On a Cluster the subscriber is a connection of its own,
    // so this is only a wake-up sooner; the watchers' own rechecks cover the rest.)
    // The connection's first "ready" is no reconnect: the SUBSCRIBEs made before it waited in its offline queue,
    // and nothing published on them was missed (waking every watcher then would wake watchers of other channels).
    let connectedBefore = subscriber.status === "ready";
    subscriber.on("ready", () => {
      const reconnect = connectedBefore;
      connectedBefore = true;
      if (!reconnect || this.waiters.size === 0) return;
      setImmediate(() => {
        subscriber.ping().then(
          () => {
            for (const set of this.waiters.values()) for (const wake of set) wake();
          },
          () => undefined,
        );
      });
    });
  }

  async watch(channel: string): Promise<Wakeup> {
    let pending = false;
    let wake: (() => void) | null = null;
    let giveUp: (() => void) | null = null;
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
        set!.delete(listener);
        if (set!.size === 0 && this.waiters.get(channel) === set) {
          this.waiters.delete(channel);
          this.subscribed.delete(channel);
          await this.subscriber.unsubscribe(channel).catch(() => undefined);
        }
      },
    };
  }
}
