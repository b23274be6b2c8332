import { ChannelSubscriptions } from "./channel-subscriptions";
import type { RedisClient } from "./redis-connections";

/**
 * A hand-off's live view between the replica that serves its page and the worker that holds its browser:
 * frames one way; a viewer's presence and the person's pointer and keys the other. Redis pub/sub, so any
 * gateway or dashboard replica serves any hand-off. Nothing is kept: a frame missed is replaced by the next.
 */
export function handoffChannels(prefix: string, jobId: string) {
  return { frames: `${prefix}:handoff:${jobId}:frames`, toPage: `${prefix}:handoff:${jobId}:to-page` };
}

/** What the page's viewer sends the worker: "I am watching", or one input event. */
export type ToPage = { kind: "viewer" } | { kind: "input"; event: LiveInput };

/** One input event of the person, in the page's CSS pixels (the view scales them from the frame's size). */
export type LiveInput =
  | { type: "click"; x: number; y: number }
  | { type: "wheel"; x: number; y: number; dx: number; dy: number }
  | { type: "text"; text: string }
  | { type: "key"; key: LiveKey };

/** The keys that are not text: what a person needs to fill and send a form. */
export const LIVE_KEYS = [
  "Enter",
  "Tab",
  "Backspace",
  "Delete",
  "Escape",
  "ArrowLeft",
  "ArrowRight",
  "ArrowUp",
  "ArrowDown",
  "Home",
  "End",
  "Space",
] as const;
export type LiveKey = (typeof LIVE_KEYS)[number];

/** One frame of the page: a JPEG, and the page's size in CSS pixels it shows. */
export interface LiveFrame {
  data: string;
  width: number;
  height: number;
}

/** Publishes and subscribes hand-off messages, with payloads (one subscriber connection per process). */
export class HandoffRelay {
  private readonly subscriptions: ChannelSubscriptions;

  constructor(
    private readonly publisher: RedisClient,
    subscriber: RedisClient,
    readonly prefix: string,
  ) {
    this.subscriptions = new ChannelSubscriptions(subscriber);
  }

  channels(jobId: string) {
    return handoffChannels(this.prefix, jobId);
  }

  /** Subscribes `handler` to `channel`; resolves once subscribed, with the way to stop. */
  listen(channel: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    return this.subscriptions.listen(channel, { message: handler });
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.publisher.publish(channel, message);
  }
}
