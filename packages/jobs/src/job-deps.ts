import type { Queue } from "bullmq";
import type { Config } from "@authsvc/config";
import type { TargetGuard } from "@authsvc/egress";
import type { Database } from "@authsvc/db";
import type { Logger } from "@authsvc/logging";
import type { JobEventType } from "@authsvc/contracts";
import type {
  AuthJobPayload,
  JobEventFields,
  JobProgress,
  SessionCache,
  SingleFlight,
  WebhookDeliveryPayload,
  WorkerRegions,
} from "@authsvc/queue";

/** What an auth job's life touches: its record (Postgres), its queue, its single-flight claim, the session cache and webhook events. */
export interface JobDeps {
  config: Pick<Config, "crypto" | "session" | "worker" | "mfa" | "handoff" | "dashboard" | "redis">;
  db: Database;
  authQueue: Queue<AuthJobPayload>;
  flight: SingleFlight;
  cache: SessionCache;
  webhookQueue: Queue<WebhookDeliveryPayload>;
  log: Logger;
  /** Checks the sites a cached session is checked on (the session check); without it only freshly checked entries are served. */
  guard?: TargetGuard;
  /** The job's progress events (GET /v1/jobs/:id/events); by default on the auth queue's connection. */
  progress: JobProgress;
  /** Which worker regions have a worker running (a job of a region is only queued when one does); by default on the auth queue's connection. */
  regions: WorkerRegions;
}

/**
 * Tells a job's progress; never fails the step that tells it (a lost event costs a client a live line, and
 * the SSE route falls back to the job's record for its end).
 */
export async function tell(
  deps: Pick<JobDeps, "progress" | "log">,
  jobId: string,
  type: JobEventType,
  fields?: JobEventFields,
): Promise<void> {
  await deps.progress
    .record(jobId, type, fields)
    .catch((err: unknown) => deps.log.warn({ jobId, type, err: String(err) }, "job event not recorded"));
}
