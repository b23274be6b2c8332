import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { WebhookEvent } from "@authsvc/contracts";
import type { RetryPolicy } from "./auth-queue";

export const WEBHOOK_QUEUE = "webhooks";

/** One delivery: the event (ids and metadata, never a secret) and the webhook it goes to. */
export interface WebhookDeliveryPayload {
  webhookId: string;
  orgId: string;
  event: WebhookEvent;
}

export function createWebhookQueue(connection: Redis, prefix: string, retry: RetryPolicy): Queue<WebhookDeliveryPayload> {
  return new Queue<WebhookDeliveryPayload>(WEBHOOK_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: {
      attempts: retry.attempts,
      backoff: { type: "exponential", delay: retry.backoffMs },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
    },
  });
}

/** Queues one delivery per webhook; the job id makes a repeated emit of the same event a no-op. */
export async function queueDeliveries(queue: Queue<WebhookDeliveryPayload>, orgId: string, webhookIds: string[], event: WebhookEvent): Promise<void> {
  await Promise.all(webhookIds.map((webhookId) => queue.add(event.type, { webhookId, orgId, event }, { jobId: `${event.id}-${webhookId}` })));
}
