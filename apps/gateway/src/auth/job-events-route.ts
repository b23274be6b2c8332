import type { Request, Response } from "express";
import { storedErrorCode, type JobEvent, type JobResource } from "@authsvc/contracts";
import { isEventPosition, isFinalEvent, type JobEventFeed, type StoredJobEvent } from "@authsvc/queue";
import type { Gauge } from "prom-client";
import { ApiError } from "../http/api-error";

// A comment line this often keeps proxies and load balancers from closing a quiet stream.
const KEEP_ALIVE_MS = 15_000;

/** The job's end as its record tells it, for a stream that lost or outlived its events. */
function endOf(job: JobResource): JobEvent | null {
  const at = new Date().toISOString();
  if (job.status === "succeeded")
    return {
      type: "succeeded",
      jobId: job.jobId,
      at,
      ...(job.result && "credentialId" in job.result
        ? { credentialId: (job.result as { credentialId: string }).credentialId }
        : {}),
    };
  if (job.status === "failed")
    return { type: "failed", jobId: job.jobId, at, error: job.error ?? { code: "internal_error", message: "" } };
  return null;
}

/**
 * `GET /v1/jobs/:id/events`: the job's progress as Server-Sent Events, from its first event (or after the
 * client's `Last-Event-ID`) to its end. The stream in Redis keeps ids and types only; a final event's error
 * (whose message may quote the site) and credential come from the job's record, as GET /v1/jobs/:id has them.
 */
export function jobEventsRoute(
  feed: JobEventFeed,
  view: (orgId: string, jobId: string) => Promise<JobResource | null>,
  streams: Gauge,
) {
  return async (req: Request, res: Response): Promise<void> => {
    const orgId = res.locals.orgId as string;
    const jobId = String(req.params.id);
    const job = await view(orgId, jobId);
    if (!job) throw new ApiError("not_found", "No such job.");
    const resume = req.get("last-event-id")?.trim();
    if (resume !== undefined && resume !== "" && !isEventPosition(resume)) {
      throw ApiError.invalid([{ field: "/headers/last-event-id", message: "is not an event id this stream sent" }]);
    }

    res
      .status(200)
      .set({ "Content-Type": "text/event-stream; charset=utf-8", Connection: "keep-alive", "X-Accel-Buffering": "no" });
    res.flushHeaders();
    const stop = new AbortController();
    res.on("close", () => stop.abort());
    const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
    streams.inc();
    try {
      const events = feed.follow(jobId, {
        after: resume || undefined,
        signal: stop.signal,
        settled: async () => {
          const now = await view(orgId, jobId);
          return now ? endOf(now) : null;
        },
      });
      for await (const entry of events) {
        const event = isFinalEvent(entry.event) ? await finalEvent(entry, () => view(orgId, jobId)) : entry.event;
        res.write(`id: ${entry.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      }
    } catch (err) {
      // The answer is under way: say why in a comment, and end it; the client reconnects with Last-Event-ID.
      if (!res.writableEnded)
        res.write(`: stream interrupted (${err instanceof ApiError ? err.code : "service_unavailable"})\n\n`);
    } finally {
      clearInterval(keepAlive);
      streams.dec();
      res.end();
    }
  };
}

/** A final event as the API tells it: the record's error (code, message, credentialId), or the credential of a success. */
async function finalEvent(entry: StoredJobEvent, view: () => Promise<JobResource | null>): Promise<JobEvent> {
  const job = await view().catch(() => null);
  const told = job ? endOf(job) : null;
  if (!told || told.type !== entry.event.type)
    return entry.event.type === "failed"
      ? { ...entry.event, error: entry.event.error ?? { code: storedErrorCode(entry.event.code), message: "" } }
      : entry.event;
  return {
    ...entry.event,
    ...(told.error ? { error: told.error } : {}),
    ...(told.credentialId ? { credentialId: told.credentialId } : {}),
  };
}
