import type { Queue } from "bullmq";
import type { Config } from "@authsvc/config";
import type { Database } from "@authsvc/db";
import type { Logger } from "@authsvc/logging";
import type { AuthJobPayload, SessionCache, SingleFlight, WebhookDeliveryPayload } from "@authsvc/queue";

/** What an auth job's life touches: its record (Postgres), its queue, its single-flight claim, the session cache and webhook events. */
export interface JobDeps {
  config: Pick<Config, "crypto" | "session" | "worker" | "mfa">;
  db: Database;
  authQueue: Queue<AuthJobPayload>;
  flight: SingleFlight;
  cache: SessionCache;
  webhookQueue: Queue<WebhookDeliveryPayload>;
  log: Logger;
}
