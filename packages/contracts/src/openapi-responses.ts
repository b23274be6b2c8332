import { ERROR_CODES, type ErrorCode } from "./error-codes";
import { ERROR_DESCRIPTIONS } from "./error-descriptions";

// Headers, parameters and error answers the OpenAPI document's operations share (components.headers,
// components.parameters), and the helpers that put them on an operation.

const header = (description: string, schema: object = { type: "string" }) => ({ description, schema });

export const headers = {
  "X-Request-Id": header("This request's id (also in every error body): quote it to find the request in our logs.", {
    type: "string",
    pattern: "^req_",
  }),
  Location: header("Where the created resource, or the running job, is: a path under /v1."),
  "X-Job-Id": header("The browser job that produced this answer (or is still running, or failed)."),
  Link: header('`</v1/jobs/{jobId}/events>; rel="monitor"`: the job\'s progress as Server-Sent Events (RFC 5989).'),
  "Retry-After": header("Seconds to wait before retrying.", { type: "integer", minimum: 1 }),
  "Idempotent-Replayed": header(
    "`true` when the answer is the one kept for an earlier request with the same Idempotency-Key.",
    { type: "string", enum: ["true"] },
  ),
  "X-Auth-Cache": header("`hit`: served from the session cache, no browser ran; `miss`: a browser logged in.", {
    type: "string",
    enum: ["hit", "miss"],
  }),
  "RateLimit-Limit": header("Requests per minute the organization may make.", { type: "integer" }),
  "RateLimit-Remaining": header("Requests left in the organization's burst.", { type: "integer", minimum: 0 }),
  "RateLimit-Reset": header("Seconds until the burst is full again.", { type: "integer", minimum: 0 }),
  "WWW-Authenticate": header('`Bearer realm="authsvc"`'),
};
type HeaderName = keyof typeof headers;

/** `{ name: $ref }` for a response's headers. */
export function headerRefs(...names: HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

export const parameters = {
  Prefer: {
    name: "Prefer",
    in: "header",
    required: false,
    description:
      "RFC 7240. `respond-async`: answer 202 with the job at once; `wait=N`: wait at most N seconds (never longer than the server's own limit) before answering 202.",
    schema: { type: "string", examples: ["respond-async", "wait=10"] },
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "1-255 visible ASCII characters (else 400 on `/headers/idempotency-key`), per organization, kept 24 hours. A retry with the same key, endpoint and body gets the first answer " +
      "(a browser job's answer now: its session, its error, or 202 while it runs; never a second browser run), with `Idempotent-Replayed: true`. " +
      "The same key with another body or endpoint: 422 `idempotency_mismatch`. A retry that arrives before the first request started its job waits for it " +
      "up to 10 s (then 409 `conflict` with Retry-After). 429 and 5xx answers are not kept: their retry runs afresh.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
    example: "signup-7f3c9a2e-acme-crm",
  },
  LastEventId: {
    name: "Last-Event-ID",
    in: "header",
    required: false,
    description:
      "The `id` of the last event received: the stream resumes after it (browsers' EventSource sends it when reconnecting).",
    schema: { type: "string" },
  },
  JobId: {
    name: "jobId",
    in: "path",
    required: true,
    schema: { type: "string", pattern: "^job_" },
    example: "job_4Lq8ZpW2nRt6YvB1xK9sDm",
  },
  CredentialId: {
    name: "id",
    in: "path",
    required: true,
    schema: { type: "string", pattern: "^cred_" },
    example: "cred_7Hc2VnQ9pL4tXw8bZr1mKs",
  },
  EntryLinkId: {
    name: "id",
    in: "path",
    required: true,
    schema: { type: "string", pattern: "^elink_" },
    example: "elink_3Vb8Qm2KzR6tYw1NcP5xLd",
  },
  MailboxId: {
    name: "id",
    in: "path",
    required: true,
    schema: { type: "string", pattern: "^mbx_" },
    example: "mbx_2Fj6Tq1wYc8nRv5xLp3sHd",
  },
  WebhookId: {
    name: "id",
    in: "path",
    required: true,
    schema: { type: "string", pattern: "^whk_" },
    example: "whk_9Kd3Mb7rXq2vNf6tWc1zGy",
  },
  ProxyId: {
    name: "id",
    in: "path",
    required: true,
    schema: { type: "string", pattern: "^prx_" },
    example: "prx_4Hq8Tz2mWc6vRn1xLp9sKd",
  },
  PasskeyId: {
    name: "passkeyId",
    in: "path",
    required: true,
    schema: { type: "string", pattern: "^pk_" },
    example: "pk_6Tz2Wc8mHq4vRn1xLp9sKd",
  },
};

export const paramRef = (name: keyof typeof parameters) => ({ $ref: `#/components/parameters/${name}` });

/** What every /v1 endpoint can answer besides its own errors: the key check, the rate limit, faults. */
export const AUTHENTICATED: ErrorCode[] = ["unauthorized", "rate_limited", "internal_error", "service_unavailable"];
/** What the body parser answers on every POST under /v1 (a POST must be JSON, even an empty one: `{}`). */
export const JSON_BODY: ErrorCode[] = [
  "invalid_request",
  "invalid_json",
  "payload_too_large",
  "unsupported_media_type",
];
/** What the Idempotency-Key layer adds: a key reused for another request, or one whose first request has not started yet. */
export const IDEMPOTENT: ErrorCode[] = ["invalid_request", "idempotency_mismatch", "conflict"];

// Headers an error answer of that status carries.
const ERROR_HEADERS: Partial<Record<number, HeaderName[]>> = {
  401: ["WWW-Authenticate"],
  409: ["Retry-After"],
  429: ["Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"],
  503: ["Retry-After"],
};

const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] as const;
const exampleRequestId = "req_8fKq2ZxR4mTn7Wb1c";

/**
 * The error answers of an operation, grouped by status, each code described and given an example.
 * `job`: the operation waits for a browser job, so its failures name it in X-Job-Id. `rated`: past the key
 * check, answers carry the rate limit's headers. `idempotent`: a retry's answer may be a replay.
 */
export function errorResponses(
  codes: ErrorCode[],
  options: { job?: boolean; rated?: boolean; idempotent?: boolean } = {},
) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes))
    byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c].meaning}`).join(" "),
          headers: headerRefs(
            "X-Request-Id",
            ...(ERROR_HEADERS[status] ?? []),
            ...(options.rated && status !== 401 && status !== 429 ? RATE_HEADERS : []),
            ...(options.idempotent && status !== 401 ? (["Idempotent-Replayed"] as const) : []),
            ...(options.job && status >= 422 ? (["X-Job-Id"] as const) : []),
          ),
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/Error" },
              examples: Object.fromEntries(
                list.map((code) => [
                  code,
                  {
                    value: { error: { code, message: ERROR_DESCRIPTIONS[code].meaning, requestId: exampleRequestId } },
                  },
                ]),
              ),
            },
          },
        },
      ]),
  );
}

export type Example = { summary?: string; value: unknown };

/** A JSON body of schema `ref`, with its examples (one is enough; several are named). */
export function json(ref: string, examples: Record<string, Example> | unknown) {
  const named =
    typeof examples === "object" &&
    examples !== null &&
    Object.values(examples).every((e) => typeof e === "object" && e !== null && "value" in e);
  return {
    "application/json": {
      schema: { $ref: `#/components/schemas/${ref}` },
      examples: named ? examples : { example: { value: examples } },
    },
  };
}

// Headers of a successful answer under /v1: the request id and the rate limit; with Idempotency-Key, the replay mark.
export const rated = (...more: Parameters<typeof headerRefs>) => headerRefs("X-Request-Id", ...RATE_HEADERS, ...more);
export const keyed = (...more: Parameters<typeof headerRefs>) => rated("Idempotent-Replayed", ...more);

/** An authenticated operation's errors: its own, and those every /v1 endpoint (and every POST) can answer. */
export const v1Errors = (own: ErrorCode[], options: { post?: boolean; idempotent?: boolean; job?: boolean } = {}) =>
  errorResponses(
    [...(options.post ? JSON_BODY : []), ...(options.idempotent ? IDEMPOTENT : []), ...own, ...AUTHENTICATED],
    { ...options, rated: true },
  );

/** A 200 answer `{"<key>": [<schema>…], …extra}`, the shape of every list endpoint. */
export function listOf(
  key: string,
  schema: string,
  description: string,
  item: unknown,
  extra: Record<string, object> = {},
) {
  const value: Record<string, unknown> = { [key]: [item] };
  if ("next" in extra) value.next = null;
  return {
    description,
    headers: rated(),
    content: {
      "application/json": {
        schema: {
          type: "object",
          required: [key],
          properties: { [key]: { type: "array", items: { $ref: `#/components/schemas/${schema}` } }, ...extra },
        },
        examples: { example: { value } },
      },
    },
  };
}
