import type { Queue } from "bullmq";
import { queueConnection, ridingFailover, type RedisClient } from "./redis-connections";
import { FINAL_JOB_EVENTS, type JobEvent, type JobEventType } from "@authsvc/contracts";
import { PubSubWakeups, type Wakeup } from "./pubsub-wakeups";
import { prefixOfQueue } from "./redis-keys";

/** What is kept of an event in Redis: its type and ids, never a secret nor the site's words (see `JobProgress.record`). */
export type JobEventFields = Omit<JobEvent, "type" | "jobId" | "at" | "error">;

export interface StoredJobEvent {
  /** The stream entry's id: the position a client resumes after (`Last-Event-ID`). */
  id: string;
  event: JobEvent;
}

// A job's events are kept a day while it runs and an hour after its end (a busy platform runs a million
// jobs a day: at ~2 KB each, a day of ended jobs would hold gigabytes); its record in Postgres outlives them,
// and the SSE route then tells the job's end from it. A job has a dozen events; the cap bounds a runaway one.
const KEEP_MS = 24 * 3600 * 1000;
const KEEP_ENDED_MS = 3600 * 1000;
const MAX_EVENTS = 200;
const READ_BATCH = 100;

/**
 * A job's progress as a Redis stream per job, written by whichever process moves the job on (the gateway
 * queues it, a worker runs it, staff replay it) and read by any gateway replica: the stream is the history a
 * late client gets, a pub/sub message on the job's channel wakes the readers that follow it live.
 */
export class JobProgress {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  key(jobId: string): string {
    return `${this.prefix}:job-events:${jobId}`;
  }

  channel(jobId: string): string {
    return `${this.prefix}:job-events-wake:${jobId}`;
  }

  /**
   * Appends an event. A failure's message is not kept here (it may quote the site's page): the gateway
   * reads it from the job's record when it serves the `failed` event. A Redis failover is waited out
   * (`ridingFailover`): an event whose first try reached Redis unanswered may then be kept twice, which a
   * reader takes as the same step told again; it is never lost.
   */
  async record(jobId: string, type: JobEventType, fields: JobEventFields = {}): Promise<string> {
    const event: JobEvent = { type, jobId, at: new Date().toISOString(), ...fields };
    const key = this.key(jobId);
    const result = await ridingFailover(this.redis, async () => {
      const replies = await this.redis
        .multi()
        .xadd(key, "MAXLEN", "~", MAX_EVENTS, "*", "e", JSON.stringify(event))
        .pexpire(key, FINAL_JOB_EVENTS.includes(type) ? KEEP_ENDED_MS : KEEP_MS)
        .publish(this.channel(jobId), type)
        .exec();
      const failed = replies?.find(([err]) => err);
      if (!replies || failed) throw failed?.[0] ?? new Error("job event not recorded");
      return replies;
    });
    return result[0]![1] as string;
  }

  /** Events after `afterId` (from the start without one), oldest first, at most a batch. */
  async read(jobId: string, afterId?: string): Promise<StoredJobEvent[]> {
    // A stream followed through a Redis failover waits for it (`ridingFailover`) rather than ending the client's stream.
    const entries = await ridingFailover(this.redis, () =>
      this.redis.xrange(this.key(jobId), afterId ? `(${afterId}` : "-", "+", "COUNT", READ_BATCH),
    );
    const events: StoredJobEvent[] = [];
    for (const [id, fields] of entries) {
      const raw = fields[fields.indexOf("e") + 1];
      if (raw === undefined) continue;
      try {
        events.push({ id, event: JSON.parse(raw) as JobEvent });
      } catch {
        // An entry we cannot read is skipped, not fatal to the stream.
      }
    }
    return events;
  }
}

/** The progress log of the auth queue's jobs, on the queue's own connection, under the service's prefix (a stream is one key: no hash tag). */
export function jobProgressOf(queue: Queue): JobProgress {
  return new JobProgress(queueConnection(queue), prefixOfQueue(queue));
}

/** A valid stream position as a client may send it back (`Last-Event-ID`). */
export function isEventPosition(id: string): boolean {
  return /^\d{1,15}-\d{1,10}$/.test(id);
}

export function isFinalEvent(event: JobEvent): boolean {
  return FINAL_JOB_EVENTS.includes(event.type);
}

export interface FollowOptions {
  /** Resume after this position (the client's `Last-Event-ID`). */
  after?: string;
  signal: AbortSignal;
  /**
   * The job's end as its record tells it, asked when the stream has been quiet for `recheckMs` and when it
   * holds nothing: events kept in Redis can be lost (Redis restarted) or expired, the record cannot.
   */
  settled: () => Promise<JobEvent | null>;
  recheckMs?: number;
}

/**
 * Follows jobs' progress for clients of one gateway process: one subscriber connection for all of them
 * (`PubSubWakeups`), the stream read on the shared command connection.
 */
export class JobEventFeed {
  private readonly wakeups: PubSubWakeups;
  private readonly open = new Set<AbortController>();

  constructor(
    private readonly progress: JobProgress,
    subscriber: RedisClient,
  ) {
    this.wakeups = new PubSubWakeups(subscriber);
  }

  /**
   * What happened after `after`, then the rest as it happens, ending after a final event that is the last
   * so far (a replayed job goes on after its first end), or when `signal` aborts or the feed closes.
   */
  async *follow(jobId: string, options: FollowOptions): AsyncGenerator<StoredJobEvent> {
    const stop = new AbortController();
    const abort = () => stop.abort();
    options.signal.addEventListener("abort", abort);
    this.open.add(stop);
    let wake: Wakeup | null = null;
    try {
      wake = await this.wakeups.watch(this.progress.channel(jobId));
      let last = options.after;
      let quiet = false;
      while (!stop.signal.aborted) {
        const batch = await this.progress.read(jobId, last);
        for (const entry of batch) {
          yield entry;
          last = entry.id;
        }
        if (batch.length === READ_BATCH) continue;
        if (batch.length > 0 && isFinalEvent(batch[batch.length - 1]!.event)) return;
        if (quiet || (batch.length === 0 && last === undefined)) {
          // Nothing new for a while, or nothing at all: the record may know the job ended.
          const end = await options.settled();
          if (end && (await this.progress.read(jobId, last)).length === 0) {
            yield { id: last ?? "0-1", event: end };
            return;
          }
        }
        quiet = !(await Promise.race([wake.next(options.recheckMs ?? 5000), aborted(stop.signal)]));
      }
    } finally {
      options.signal.removeEventListener("abort", abort);
      this.open.delete(stop);
      await wake?.close();
    }
  }

  /** Ends every stream (shutdown): their clients reconnect, to another replica, with Last-Event-ID. */
  close(): void {
    for (const stop of this.open) stop.abort();
  }
}

function aborted(signal: AbortSignal): Promise<false> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    signal.addEventListener("abort", () => resolve(false), { once: true });
  });
}
