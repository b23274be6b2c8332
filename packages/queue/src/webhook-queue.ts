import { Queue } from "bullmq";
import type { RedisClient } from "./redis-connections";
import type { WebhookEvent } from "@authsvc/contracts";
import type { RetryPolicy } from "./auth-queue";
import { queuePrefix } from "./redis-keys";

export const WEBHOOK_QUEUE = "webhooks";

/** One delivery: the event (ids and metadata, never a secret) and the webhook it goes to. */
export interface WebhookDeliveryPayload {
  webhookId: string;
  orgId: string;
  event: WebhookEvent;
}

export function createWebhookQueue(
  connection: RedisClient,
  prefix: string,
  retry: RetryPolicy,
): Queue<WebhookDeliveryPayload> {
  return new Queue<WebhookDeliveryPayload>(WEBHOOK_QUEUE, {
    connection,
    prefix: queuePrefix(prefix, WEBHOOK_QUEUE),
    defaultJobOptions: {
      attempts: retry.attempts,
      backoff: { type: "exponential", delay: retry.backoffMs },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
    },
  });
}

/** Queues one delivery per webhook; the job id makes a repeated emit of the same event a no-op. */
export async function queueDeliveries(
  queue: Queue<WebhookDeliveryPayload>,
  orgId: string,
  webhookIds: string[],
  event: WebhookEvent,
): Promise<void> {
  await Promise.all(
    webhookIds.map((webhookId) =>
      queue.add(event.type, { webhookId, orgId, event }, { jobId: `${event.id}-${webhookId}` }),
    ),
  );
}
