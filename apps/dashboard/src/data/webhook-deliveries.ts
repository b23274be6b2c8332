import type { Queue } from "bullmq";
import type { WebhookDeliveryPayload } from "@authsvc/queue";

export interface Delivery {
  eventType: string;
  eventId: string;
  state: string;
  attempts: number;
  /** The endpoint's HTTP status, or why the delivery failed. */
  outcome: string;
  at: Date;
}

// Deliveries live in the webhook queue (kept a day when delivered, a week when failed); the newest few
// hundred are read and this org's are kept.
const SCAN = 500;

/** Recent deliveries of one org's webhooks, newest first, from the webhook queue. */
export async function recentDeliveries(
  queue: Queue<WebhookDeliveryPayload>,
  orgId: string,
  limit = 50,
): Promise<Map<string, Delivery[]>> {
  const jobs = await queue.getJobs(["active", "waiting", "delayed", "completed", "failed"], 0, SCAN, false);
  const byHook = new Map<string, Delivery[]>();
  const mine = jobs
    .filter((j) => j?.data?.orgId === orgId)
    .sort((a, b) => (b.timestamp ?? 0) - (a.timestamp ?? 0))
    .slice(0, limit);
  for (const job of mine) {
    const state = job.finishedOn
      ? job.failedReason
        ? "failed"
        : "delivered"
      : job.attemptsMade > 0
        ? "retrying"
        : "queued";
    const returned = job.returnvalue as { status?: number } | string | null;
    const outcome =
      job.failedReason ??
      (typeof returned === "object" && returned?.status
        ? `HTTP ${returned.status}`
        : typeof returned === "string"
          ? returned
          : "—");
    const list = byHook.get(job.data.webhookId) ?? [];
    list.push({
      eventType: job.data.event.type,
      eventId: job.data.event.id,
      state,
      attempts: job.attemptsMade,
      outcome,
      at: new Date(job.finishedOn ?? job.timestamp),
    });
    byHook.set(job.data.webhookId, list);
  }
  return byHook;
}
