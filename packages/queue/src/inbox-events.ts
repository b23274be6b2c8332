import type { Queue } from "bullmq";
import { queueConnection, type RedisClient } from "./redis-connections";
import { PubSubWakeups, type Wakeup } from "./pubsub-wakeups";
import { prefixOfQueue } from "./redis-keys";

/**
 * Redis pub/sub channel of one inbox (a mailbox or phone number id). mail-in and the SMS webhook publish
 * the new message's id on it; a flow waiting for a code subscribes, so it wakes at once instead of polling.
 */
export function inboxChannel(prefix: string, inboxId: string): string {
  return `${prefix}:inbox:${inboxId}`;
}

/** Tells waiting flows that `inboxId` received a message. The message itself stays in Postgres. */
export async function notifyInbox(
  redis: RedisClient,
  prefix: string,
  inboxId: string,
  messageId: string,
): Promise<void> {
  await redis.publish(inboxChannel(prefix, inboxId), messageId);
}

/**
 * Redis pub/sub channel of one job's hand-off: the gateway publishes on it when a person answered what the
 * job asks (the answer itself is in Postgres, encrypted); the waiting flow wakes at once.
 */
export function jobInputChannel(prefix: string, jobId: string): string {
  return `${prefix}:job-input:${jobId}`;
}

/** Tells the flow of `jobId` that its question has an answer, on the auth queue's connection, under the service's prefix. */
export async function notifyJobInput(authQueue: Queue, jobId: string): Promise<void> {
  await queueConnection(authQueue).publish(jobInputChannel(prefixOfQueue(authQueue), jobId), "answered");
}

/** Wake-ups of flows waiting for a code or link in one of our inboxes, or for a person's answer (see `PubSubWakeups`). */
export class InboxEvents {
  private readonly wakeups: PubSubWakeups;

  constructor(
    subscriber: RedisClient,
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

  /** Subscribes to a job's hand-off; subscribe, then read for an answer, then wait (as `watch`). */
  watchJobInput(jobId: string): Promise<Wakeup> {
    return this.wakeups.watch(jobInputChannel(this.prefix, jobId));
  }
}
