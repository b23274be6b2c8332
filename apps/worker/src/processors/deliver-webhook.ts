import { UnrecoverableError, type Job } from "bullmq";
import type { TargetGuard } from "@authsvc/egress";
import { webhookSignature } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";
import type { Logger } from "@authsvc/logging";
import type { WebhookDeliveryPayload } from "@authsvc/queue";
import { postToCheckedAddresses } from "@authsvc/egress";

const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Delivers one event: POST JSON, signed (X-Authsvc-Signature), to a public address only (the URL is the
 * customer's input, checked like a login target), without following redirects. 2xx ends it; 5xx, 408,
 * 429, timeouts and network faults are retried by BullMQ with backoff; any other answer is final.
 */
export function createWebhookDeliverer(deps: { db: Database; guard: TargetGuard; log: Logger }) {
  return async function deliverWebhook(
    job: Job<WebhookDeliveryPayload>,
  ): Promise<{ status: number } | "webhook deleted"> {
    const { webhookId, orgId, event } = job.data;
    const hook = await deps.db.webhooks.forDelivery(orgId, webhookId);
    if (!hook) return "webhook deleted";
    const url = new URL(hook.url);
    const target = /^https?:$/.test(url.protocol)
      ? await deps.guard.resolve(url.hostname)
      : ({ allowed: false, reason: `scheme ${url.protocol} is not allowed` } as const);
    if (!target.allowed) throw new UnrecoverableError(`webhook address refused: ${target.reason}`);
    const body = JSON.stringify(event);
    let status: number;
    try {
      // Connects to the addresses just checked; a redirect is an answer like any other (never followed).
      status = await postToCheckedAddresses(
        url,
        target.addresses,
        {
          "content-type": "application/json",
          "user-agent": "authsvc-webhooks/1",
          "x-authsvc-event": event.type,
          "x-authsvc-delivery": event.id,
          "x-authsvc-signature": webhookSignature(hook.secret, body),
        },
        body,
        DELIVERY_TIMEOUT_MS,
      );
    } catch (err) {
      deps.log.warn(
        { webhookId, orgId, eventId: event.id, attempt: job.attemptsMade + 1, err: String(err) },
        "webhook delivery failed; retrying",
      );
      throw new Error(`webhook unreachable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const log = { webhookId, orgId, eventId: event.id, type: event.type, status, attempt: job.attemptsMade + 1 };
    if (status >= 200 && status < 300) {
      deps.log.info(log, "webhook delivered");
      return { status };
    }
    if (status >= 500 || status === 408 || status === 429) {
      deps.log.warn(log, "webhook answered an error; retrying");
      throw new Error(`webhook answered ${status}`);
    }
    deps.log.warn(log, "webhook refused the event; not retried");
    throw new UnrecoverableError(`webhook answered ${status}`);
  };
}
