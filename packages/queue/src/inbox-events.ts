import type { Redis } from "ioredis";
import { PubSubWakeups, type Wakeup } from "./pubsub-wakeups";

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

/** Wake-ups of flows waiting for a code or link in one of our inboxes (see `PubSubWakeups`). */
export class InboxEvents {
  private readonly wakeups: PubSubWakeups;

  constructor(
    subscriber: Redis,
    private readonly prefix: string,
  ) {
    this.wakeups = new PubSubWakeups(subscriber);
  }

  /**
   * Subscribes to the inbox and returns a waiter. Subscribe before reading the inbox, then `next(ms)`:
   * a message stored between the read and the wait still wakes it.
   */
  watch(inboxId: string): Promise<Wakeup> {
    return this.wakeups.watch(inboxChannel(this.prefix, inboxId));
  }
}
