import { randomUUID } from "node:crypto";
import type { Queue } from "bullmq";
import type { WebhookEvent, WebhookEventType } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import { queueDeliveries, type WebhookDeliveryPayload } from "@authsvc/queue";
import type { OpenedJob } from "./open-job";

/**
 * Sends an event to every webhook of the org that asked for its type: queued here, delivered by the
 * worker's webhook processor. Events name credentials and jobs by id, never a secret or a cookie.
 */
export async function emitEvent(
  db: Database,
  queue: Queue<WebhookDeliveryPayload>,
  orgId: string,
  type: WebhookEventType,
  data: WebhookEvent["data"],
): Promise<void> {
  const hooks = await db.webhooks.subscribedTo(orgId, type);
  if (hooks.length === 0) return;
  const event: WebhookEvent = {
    id: `evt_${randomUUID().replace(/-/g, "")}`,
    type,
    createdAt: new Date().toISOString(),
    orgId,
    data,
  };
  await queueDeliveries(
    queue,
    orgId,
    hooks.map((h) => h.id),
    event,
  );
}

/** What every event about the job says of its credential: ids and metadata, never a secret. */
export const about = (job: OpenedJob) => ({
  credentialId: job.credential.id,
  site: job.credential.siteOrigin,
  username: job.credential.username,
  jobId: job.id,
});
