import type { RedisClient } from "./redis-connections";

/** What a listener of a channel is told: each message, and that messages may have been missed. */
export interface ChannelListener {
  message(message: string): void;
  /**
   * The connection came (back) and the channel is subscribed again: whatever was published while it was not
   * is lost. Called once the SUBSCRIBE is answered, so a message published from then on is delivered.
   */
  missed?(): void;
}

/**
 * The channels one subscriber connection listens on, counted: a channel is subscribed for its first listener
 * and left when its last goes. One home for what a subscriber connection needs to stay right across reconnects:
 *
 * - A SUBSCRIBE is sent only on a ready connection. ioredis writes a SUBSCRIBE at once while a connection is
 *   still in its handshake, ahead of its ready check's INFO, which Redis then refuses ("only (P|S)SUBSCRIBE …
 *   allowed in this context"): the check fails and the connection is dropped and made again.
 * - Every channel in use is subscribed again on every "ready" by us, not only by ioredis: ioredis resubscribes
 *   only what a connection held when it closed while ready, so a channel subscribed during a handshake, or on a
 *   connection that was cut before its ready check, is otherwise lost for good with nobody told.
 * - After that SUBSCRIBE is answered, the `missed` of every listener that was subscribed before is called: it
 *   reads what it may have missed.
 */
export class ChannelSubscriptions {
  private readonly listeners = new Map<string, Set<ChannelListener>>();
  /** The SUBSCRIBE of each channel in use; every listener waits for it. */
  private readonly subscribed = new Map<string, Promise<unknown>>();
  /** The listeners whose channel's SUBSCRIBE was answered: they listen. */
  private readonly subscribedListeners = new Set<ChannelListener>();
  private nextReady: Promise<void> | null = null;

  constructor(private readonly subscriber: RedisClient) {
    subscriber.on("message", (channel: string, message: string) => {
      for (const listener of this.listeners.get(channel) ?? []) listener.message(message);
    });
    subscriber.on("ready", () => {
      const channels = [...this.listeners.keys()];
      if (channels.length === 0) return;
      // Only a listener already subscribed on an earlier connection can have missed anything: one still waiting
      // for its SUBSCRIBE reads after it is answered.
      const earlier = [...this.subscribedListeners];
      subscriber.subscribe(...channels).then(
        () => {
          for (const listener of earlier) if (this.subscribedListeners.has(listener)) listener.missed?.();
        },
        // The connection went again: its next "ready" subscribes them.
        () => undefined,
      );
    });
  }

  /** Listens on `channel`; resolves once it is subscribed, with the way to stop listening. */
  async listen(channel: string, listener: ChannelListener): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    if (!this.subscribed.has(channel)) this.subscribed.set(channel, this.subscribeWhenReady(channel));
    try {
      await this.subscribed.get(channel);
    } catch (err) {
      // Not subscribed: forget the attempt, so the next listener tries again.
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        this.subscribed.delete(channel);
      }
      throw err;
    }
    this.subscribedListeners.add(listener);
    return async () => {
      this.subscribedListeners.delete(listener);
      if (!set.delete(listener)) return;
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        this.subscribed.delete(channel);
        await this.subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  private async subscribeWhenReady(channel: string): Promise<unknown> {
    if (this.subscriber.status !== "ready" && this.subscriber.status !== "end") await this.readyOrEnded();
    // Closed for good: the SUBSCRIBE fails, as it would have.
    return this.subscriber.subscribe(channel);
  }

  /** The connection's next "ready" (or "end"): one wait shared by every channel asked for meanwhile. */
  private readyOrEnded(): Promise<void> {
    this.nextReady ??= new Promise<void>((resolve) => {
      const settle = () => {
        this.subscriber.off("ready", settle);
        this.subscriber.off("end", settle);
        this.nextReady = null;
        resolve();
      };
      this.subscriber.on("ready", settle);
      this.subscriber.on("end", settle);
    });
    return this.nextReady;
  }
}
