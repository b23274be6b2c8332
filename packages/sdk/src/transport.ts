import { errorFromResponse, NetworkError, retryAfterSeconds } from "./errors";
import { backoffMs, sleep } from "./backoff";

export interface TransportOptions {
  /** The service's address, with or without the `/v1` prefix: `https://auth.example.com`. */
  baseUrl: string;
  /** An organization's API key, `pk_…`. */
  apiKey: string;
  /** Another fetch (a proxy-aware one, a test's); the platform's by default. */
  fetch?: typeof fetch;
  /** Retries after a network fault, 429 or 503 (GETs, DELETEs and POSTs with an idempotency key). Default 3. */
  maxRetries?: number;
  /** How long one attempt may take, in ms; default 90 s (the service itself answers 202 after 55 s). */
  timeoutMs?: number;
  /** The longest the client sleeps between two attempts, in ms (a longer `Retry-After` is not waited out). Default 30 s. */
  maxRetryDelayMs?: number;
}

/** Per-call options of every method. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Sees the status and headers of the answer the call ends with (`X-Request-Id`, `X-Auth-Cache`, `Idempotent-Replayed` …). */
  onResponse?: (response: { status: number; headers: Headers }) => void;
}

/** Options of the calls that accept an `Idempotency-Key` (every POST). */
export interface IdempotentOptions extends RequestOptions {
  /** The key of this logical call; by default one is generated per call and sent again on each retry. */
  idempotencyKey?: string;
}

export interface Route {
  method: "GET" | "POST" | "DELETE";
  /** The path under `/v1`, with `{name}` parameters, as the OpenAPI document names it. */
  path: string;
  /** Whether the route takes an `Idempotency-Key`. */
  idempotent?: boolean;
}

export interface Call {
  route: Route;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  options?: IdempotentOptions;
  /** Hand back the response with its body unread (an event stream); the timeout then covers only the headers. */
  stream?: boolean;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  response: Response;
}

const RETRY_STATUSES = new Set([429, 503]);

/** HTTP to the API: auth, JSON, timeouts, idempotency keys, retries, errors as exceptions. */
export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError("AuthClient: baseUrl is required");
    if (!options.apiKey) throw new TypeError("AuthClient: apiKey is required");
    const base = options.baseUrl.replace(/\/+$/, "");
    this.baseUrl = /\/v1$/.test(base) ? base : `${base}/v1`;
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxRetries = options.maxRetries ?? 3;
    this.timeoutMs = options.timeoutMs ?? 90_000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
  }

  url(call: Pick<Call, "route" | "params" | "query">): string {
    const path = call.route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = call.params?.[name];
      if (!value) throw new TypeError(`${call.route.method} ${call.route.path}: ${name} is required`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) query.set(k, String(v));
    const qs = query.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ""}`;
  }

  async send<T>(call: Call): Promise<Answer<T>> {
    const { route, options = {} } = call;
    // One key per logical call, the same on every retry: the service answers a retry with the first answer.
    const idempotencyKey = route.idempotent ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    const retryable = route.method !== "POST" || idempotencyKey !== undefined;
    const headers: Record<string, string> = {
      accept: "application/json",
      ...call.headers,
      authorization: `Bearer ${this.apiKey}`,
    };
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const url = this.url(call);

    for (let attempt = 0; ; attempt++) {
      const canRetry = retryable && attempt < this.maxRetries;
      let response: Response;
      try {
        response = await this.attempt(url, { method: route.method, headers, body }, options, call.stream === true);
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason ?? err;
        const timedOut = err instanceof AttemptTimeout;
        if (canRetry) {
          await sleep(backoffMs(attempt), options.signal);
          continue;
        }
        throw new NetworkError(
          timedOut
            ? `${route.method} ${route.path}: no answer within ${options.timeoutMs ?? this.timeoutMs} ms`
            : `${route.method} ${route.path}: ${describe(err)}`,
          { cause: err, timedOut },
        );
      }
      const retryStatus =
        RETRY_STATUSES.has(response.status) ||
        (response.status === 409 && idempotencyKey !== undefined && response.headers.has("retry-after"));
      if (retryStatus && canRetry) {
        const after = retryAfterSeconds(response.headers.get("retry-after"));
        const delay = after !== undefined ? after * 1000 : backoffMs(attempt);
        if (delay <= this.maxRetryDelayMs) {
          await response.body?.cancel().catch(() => undefined);
          await sleep(delay, options.signal);
          continue;
        }
      }
      options.onResponse?.({ status: response.status, headers: response.headers });
      if (call.stream && response.ok)
        return { status: response.status, headers: response.headers, body: undefined as T, response };
      const parsed = await readJson(response, options.signal);
      if (response.status >= 400) throw errorFromResponse(response.status, response.headers, parsed);
      return { status: response.status, headers: response.headers, body: parsed as T, response };
    }
  }

  /** One fetch, cut off by the caller's signal or the timeout (for a stream: until its headers came). */
  private async attempt(url: string, init: RequestInit, options: RequestOptions, stream: boolean): Promise<Response> {
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const timer = setTimeout(() => controller.abort(new AttemptTimeout()), timeoutMs);
    const onAbort = () => controller.abort(options.signal!.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      const response = await this.fetchImpl(url, { ...init, signal: controller.signal });
      if (stream) return response;
      // Read the body under the same timeout, then hand back a response whose body is in memory.
      const text = await response.text();
      return new Response(response.status === 204 ? null : text, {
        status: response.status,
        headers: response.headers,
      });
    } catch (err) {
      throw controller.signal.reason instanceof AttemptTimeout ? controller.signal.reason : err;
    } finally {
      clearTimeout(timer);
      if (!stream) options.signal?.removeEventListener("abort", onAbort);
    }
  }
}

class AttemptTimeout extends Error {
  constructor() {
    super("attempt timed out");
    this.name = "AttemptTimeout";
  }
}

async function readJson(response: Response, signal?: AbortSignal): Promise<unknown> {
  if (signal?.aborted) throw signal.reason;
  const text = response.status === 204 ? "" : await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(err: unknown): string {
  const message = (e: unknown) =>
    typeof e === "object" && e !== null && typeof (e as Error).message === "string" ? (e as Error).message : String(e);
  const cause = typeof err === "object" && err !== null ? (err as { cause?: unknown }).cause : undefined;
  return cause ? `${message(err)} (${message(cause)})` : message(err);
}
