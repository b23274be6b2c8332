import { backoffMs, sleep } from "./backoff";
import { errorFromJob, NetworkError } from "./errors";
import { parseEventStream } from "./sse";
import type { Transport } from "./transport";
import type { RequestOptions } from "./transport";
import { JOB_EVENT_TYPES, type InputAnswerRequest, type InputRequest, type JobEvent, type JobResource } from "./types";
import { ROUTES } from "./routes";

export interface JobEventsOptions {
  signal?: AbortSignal;
  /** Resume after this event id (from a previous stream). */
  lastEventId?: string;
  /** Reconnections (with Last-Event-ID) after the stream broke, before giving up. Default 5. */
  maxReconnects?: number;
  /** A stream silent for this long is taken as broken (the server sends a keep-alive every 15 s). Default 45 s. */
  idleTimeoutMs?: number;
}

export interface FollowOptions extends RequestOptions {
  /** Called with each progress event, in order. */
  onProgress?: (event: JobEvent) => void;
  /**
   * Called when the job waits for a person (it was started with `allowHandoff: true`): `input` says what
   * for (and `input.handoffUrl` is the hosted page to send them). Answer with `jobs.input(jobId, …)`, or let
   * the person use the page; the wait goes on to the job's end either way. Called again after a refused
   * answer, with the site's words.
   */
  onNeedsInput?: (input: InputRequest, jobId: string) => void | Promise<void>;
  /** Poll interval when the event stream is unavailable, in ms. Default 1 s, growing to 5 s. */
  pollIntervalMs?: number;
}

const FINAL = new Set<string>(["succeeded", "failed"]);
const KNOWN_TYPES = new Set<string>(JOB_EVENT_TYPES);

/** GET /v1/jobs/{jobId}, its event stream, and following a job to its end. */
export class Jobs {
  constructor(private readonly transport: Transport) {}

  async get<Result = unknown>(jobId: string, options: RequestOptions = {}): Promise<JobResource<Result>> {
    return (await this.transport.send<JobResource<Result>>({ route: ROUTES.getJob, params: { jobId }, options })).body;
  }

  /**
   * Answers what a job in `needs_input` waits for: `{code}`, `{choice}`, `{answer}`, or `{}` (look again).
   * The job goes on with the same page; its end is read as always (`wait`, `events`).
   */
  async input<Result = unknown>(
    jobId: string,
    answer: InputAnswerRequest = {},
    options: RequestOptions = {},
  ): Promise<JobResource<Result>> {
    return (
      await this.transport.send<JobResource<Result>>({
        route: ROUTES.answerJobInput,
        params: { jobId },
        body: answer,
        options,
      })
    ).body;
  }

  /**
   * The job's progress as it happens (and what happened before, for a late listener), ending after
   * `succeeded` or `failed`. A broken stream is resumed with Last-Event-ID; unknown event types are skipped.
   */
  async *events(jobId: string, options: JobEventsOptions = {}): AsyncGenerator<JobEvent> {
    let lastEventId = options.lastEventId;
    const maxReconnects = options.maxReconnects ?? 5;
    for (let broken = 0; ;) {
      const idle = new IdleWatch(options.idleTimeoutMs ?? 45_000, options.signal);
      try {
        const answer = await this.transport.send({
          route: ROUTES.getJobEvents,
          params: { jobId },
          headers: { accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
          options: { signal: idle.signal },
          stream: true,
        });
        const type = answer.headers.get("content-type") ?? "";
        if (!type.startsWith("text/event-stream") || !answer.response.body) {
          await answer.response.body?.cancel().catch(() => undefined);
          throw new NetworkError(
            `GET ${ROUTES.getJobEvents.path}: answered ${type || "no content type"}, not an event stream`,
          );
        }
        for await (const message of parseEventStream(idle.watch(answer.response.body))) {
          lastEventId = message.id ?? lastEventId;
          broken = 0;
          const event = parseJobEvent(message.data);
          // Types this SDK does not know yet are skipped, as the API asks of clients.
          if (!event) continue;
          yield event;
          if (FINAL.has(event.type)) return;
        }
        // The server closed the stream before the end: resume where it left off.
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason ?? err;
        if (!(err instanceof NetworkError) && !idle.fired && !isStreamFault(err)) throw err;
      } finally {
        idle.stop();
      }
      if (++broken > maxReconnects) throw new NetworkError(`the event stream of ${jobId} kept breaking`);
      await sleep(backoffMs(broken - 1), options.signal);
    }
  }

  /**
   * Follows a job to its end and returns its result, or throws its error exactly as the synchronous answer
   * would have. Reads the event stream; when that is not available, polls GET /v1/jobs/{jobId}.
   */
  async wait<Result>(jobId: string, options: FollowOptions = {}): Promise<Result> {
    // Each question once, whether the stream or a poll saw it first.
    let asked = "";
    const needsInput = async (input: InputRequest | undefined) => {
      const key = input ? JSON.stringify(input) : "";
      if (!input || key === asked || !options.onNeedsInput) return;
      asked = key;
      await options.onNeedsInput(input, jobId);
    };
    try {
      for await (const event of this.events(jobId, { signal: options.signal })) {
        options.onProgress?.(event);
        if (event.type === "needs_input") await needsInput(event.input);
      }
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason ?? err;
      // No stream (it kept breaking, or a server without it): the job's own answer says the same, by polling.
    }
    for (let round = 0; ; round++) {
      const answer = await this.transport.send<JobResource<Result>>({
        route: ROUTES.getJob,
        params: { jobId },
        options,
      });
      const job = answer.body;
      if (job.status === "succeeded") return job.result as Result;
      if (job.status === "failed")
        throw errorFromJob(
          jobId,
          job.error ?? { code: "internal_error", message: "The job failed." },
          answer.headers.get("x-request-id") ?? undefined,
        );
      if (job.status === "needs_input") await needsInput(job.input);
      await sleep(Math.min(5_000, (options.pollIntervalMs ?? 1_000) * 1.5 ** round), options.signal);
    }
  }
}

function parseJobEvent(data: string): JobEvent | undefined {
  try {
    const value = JSON.parse(data) as JobEvent;
    return value && typeof value === "object" && KNOWN_TYPES.has(value.type) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A body read that failed mid-stream (fetch's "terminated" TypeError on a reset, an abort). By name: the
 * error may come from another realm than ours (a test runner's, a worker's), where `instanceof` fails.
 */
function isStreamFault(err: unknown): boolean {
  const name = typeof err === "object" && err !== null ? (err as { name?: unknown }).name : undefined;
  return name === "TypeError" || name === "AbortError" || name === "TimeoutError";
}

/** Aborts a stream that has been silent too long, and passes the caller's abort on. */
class IdleWatch {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  fired = false;
  readonly signal = this.controller.signal;

  constructor(
    private readonly ms: number,
    private readonly outer?: AbortSignal,
  ) {
    outer?.addEventListener("abort", this.onOuterAbort, { once: true });
    if (outer?.aborted) this.onOuterAbort();
    this.arm();
  }

  private readonly onOuterAbort = () => this.controller.abort(this.outer!.reason);

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new NetworkError("the event stream went silent"));
    }, this.ms);
  }

  /** The same bytes; each chunk re-arms the timer. */
  watch(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    return body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, out) => {
          this.arm();
          out.enqueue(chunk);
        },
      }),
      { signal: this.signal },
    );
  }

  stop(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener("abort", this.onOuterAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }
}
