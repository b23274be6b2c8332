import type { RequestHandler, Response } from "express";
import { randomBytes } from "node:crypto";
import { ridingFailover, type RedisClient } from "@authsvc/queue";
import { DecryptionError, type Envelope, fingerprint } from "@authsvc/crypto";
import type { Logger } from "@authsvc/logging";
import type { IdempotentCall } from "../auth/auth-service";
import { ApiError } from "./api-error";

/** How long a key is remembered: a day, as Stripe and the IETF draft do. */
export const IDEMPOTENCY_KEEP_S = 24 * 3600;
const KEY = /^[\x21-\x7E]{1,255}$/;
/** The POSTs that create something or run a browser job. */
const ROUTES = [
  /^\/login$/,
  /^\/signup$/,
  /^\/refresh$/,
  /^\/mailboxes$/,
  /^\/webhooks$/,
  /^\/credentials\/[^/]+\/verify$/,
  /^\/credentials\/[^/]+\/passkeys$/,
];
/** Headers of an answer that are part of it, kept with a stored one. */
const KEPT_HEADERS = ["location", "x-auth-cache", "x-job-id", "link", "retry-after"];
// A retry that comes while the first request has not started its job yet looks again this often, this long.
const POLL_MS = 200;
const POLL_FOR_MS = 10_000;

/**
 * What is remembered of a key: the request's digest (keyed HMAC of endpoint and body, so no password is kept),
 * and then the job it started (a retry joins the job and answers from it) or, for an answer that ran no job,
 * the answer itself, encrypted (it may hold a session or a webhook's secret).
 */
interface Remembered {
  digest: string;
  /** Which request took the key (random, per request) while it has neither job nor answer: its own claim, read back after a failover. */
  owner?: string;
  jobId?: string;
  answer?: string;
}

interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** JSON with object keys sorted: the same body sent with its keys in another order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * `Idempotency-Key` on the POSTs that start a job or create something: a retry with the same key, endpoint
 * and body, within a day and within the organization, gets the first request's answer (a job's answer as
 * it stands now, waiting like the first did; another answer as it was), marked `Idempotent-Replayed: true`.
 * The same key with another request is 422 `idempotency_mismatch`. Answers that say "try again" (429, 5xx)
 * are not kept: their retry runs afresh. A key whose first request died unanswered is free again after
 * `runningMs` (longer than any request waits). Every Redis call waits out a failover (`ridingFailover`).
 */
export function idempotency(
  redis: RedisClient,
  prefix: string,
  digestKey: Buffer,
  envelope: Envelope,
  log: Logger,
  runningMs: number,
): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== "POST" || !ROUTES.some((route) => route.test(req.path))) return next();
    const given = req.get("idempotency-key");
    if (given === undefined) return next();
    if (!KEY.test(given))
      throw ApiError.invalid([
        { field: "/headers/idempotency-key", message: "must be 1 to 255 visible ASCII characters" },
      ]);
    const orgId = res.locals.orgId as string;
    const slot = `${prefix}:idempotency:${fingerprint(digestKey, ["idempotency-key", orgId, given])}`;
    const digest = fingerprint(digestKey, [
      "idempotency-request",
      orgId,
      req.baseUrl + req.path,
      canonicalJson(req.body ?? null),
    ]);
    const owner = randomBytes(9).toString("base64url");
    const ride = <T>(call: () => Promise<T>) => ridingFailover(redis, call);
    const take = async () =>
      (await ride(() =>
        redis.set(slot, JSON.stringify({ digest, owner } satisfies Remembered), "PX", runningMs, "NX"),
      )) === "OK";

    if (await take()) {
      res.locals.idempotent = firstRequest(res, redis, slot, digest, envelope, log);
      return next();
    }
    const deadline = Date.now() + POLL_FOR_MS;
    for (;;) {
      const raw = await ride(() => redis.get(slot));
      if (!raw) {
        // The first request's answer was not kept (429, 5xx) or its key expired: this one is the first now.
        if (await take()) {
          res.locals.idempotent = firstRequest(res, redis, slot, digest, envelope, log);
          return next();
        }
        continue;
      }
      const remembered = JSON.parse(raw) as Remembered;
      if (remembered.owner === owner) {
        // Our own take, made by a try whose answer a failover lost.
        res.locals.idempotent = firstRequest(res, redis, slot, digest, envelope, log);
        return next();
      }
      if (remembered.digest !== digest) {
        throw new ApiError(
          "idempotency_mismatch",
          "This Idempotency-Key was used for another request (another endpoint or body) in the last 24 hours; use a new key for a new request.",
        );
      }
      res.set("Idempotent-Replayed", "true");
      if (remembered.jobId) {
        // The route runs again and answers from the job, starting nothing.
        res.locals.idempotent = { joinJob: remembered.jobId } satisfies IdempotentCall;
        return next();
      }
      if (remembered.answer) {
        let answer: StoredAnswer;
        try {
          answer = envelope.decryptJson<StoredAnswer>(remembered.answer, slot);
        } catch (err) {
          if (!(err instanceof DecryptionError)) throw err;
          // Sealed with a key the ring no longer has (retired, or replaced): the answer is lost, as it is once
          // the key's day is over, and the request runs afresh as the key's first.
          log.warn(
            { requestId: res.locals.requestId, err: err.message },
            "idempotent answer no longer opens; the request runs afresh",
          );
          res.removeHeader("Idempotent-Replayed");
          await ride(() => redis.del(slot));
          continue;
        }
        res.status(answer.status).set(answer.headers).json(answer.body);
        return;
      }
      if (Date.now() >= deadline) {
        throw new ApiError(
          "conflict",
          "A request with this Idempotency-Key is still being handled; retry shortly.",
          undefined,
          { "Retry-After": "1" },
        );
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
}

/** The first request of a key: remembers its job as soon as it starts, and its answer when it is sent. */
function firstRequest(
  res: Response,
  redis: RedisClient,
  slot: string,
  digest: string,
  envelope: Envelope,
  log: Logger,
): IdempotentCall {
  let jobId: string | undefined;
  const remember = (value: Remembered) =>
    ridingFailover(redis, () => redis.set(slot, JSON.stringify(value), "EX", IDEMPOTENCY_KEEP_S));
  const failed = (err: unknown) =>
    log.warn({ requestId: res.locals.requestId, err: String(err) }, "idempotent answer not kept");
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    const status = res.statusCode;
    if (status === 429 || status >= 500) void ridingFailover(redis, () => redis.del(slot)).catch(failed);
    else if (jobId || res.get("x-job-id")) void remember({ digest, jobId: jobId ?? res.get("x-job-id") }).catch(failed);
    else {
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = res.get(name);
        if (value !== undefined) headers[name] = value;
      }
      void remember({
        digest,
        answer: envelope.encryptJson({ status, headers, body } satisfies StoredAnswer, slot),
      }).catch(failed);
    }
    return send(body);
  };
  return {
    started: (id) => {
      jobId = id;
      void remember({ digest, jobId: id }).catch(failed);
    },
  };
}
