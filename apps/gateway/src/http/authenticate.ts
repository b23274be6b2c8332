import type { Request, RequestHandler, Response } from "express";
import type { PrefetchedEntry } from "@authsvc/queue";
import { ApiError } from "./api-error";
import type { OrgRateLimit, RateVerdict } from "./rate-limit";
import type { VerifiedKey, VerifiedKeys } from "./verified-keys";

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;
const challenge = { "WWW-Authenticate": 'Bearer realm="authsvc"' };
// A revocation announced while we verify sends us round again; more than this many in a row is not normal.
const MAX_VERIFICATIONS = 3;

/** A Redis key an admitted request wants read with its rate-limit token (its cached session), or undefined. */
export type AdmissionRead = (req: Request, res: Response) => string | undefined;

/**
 * Two middlewares around the body parser. `identify`: `Authorization: Bearer pk_…` checked in memory
 * (VerifiedKeys, Postgres on a miss); sets `res.locals.orgId`; unknown and revoked keys get the same 401.
 * `admit`: the org's rate limit, in one Redis call that also checks the revocation mark (a key verified
 * before a revocation is verified again, on every replica, from the first request after it) and reads the
 * key `read` names, kept in `res.locals.prefetched`. So a cached login makes one Redis round trip in all.
 */
export function authenticate(
  keys: VerifiedKeys,
  limit: OrgRateLimit,
  read?: AdmissionRead,
): { identify: RequestHandler; admit: RequestHandler } {
  // The key itself stays out of res.locals, which error handlers and logs may look at.
  const identified = new WeakMap<Request, { apiKey: string; key: VerifiedKey }>();

  const identify: RequestHandler = async (req, res, next) => {
    const header = req.headers.authorization;
    if (!header)
      throw new ApiError(
        "unauthorized",
        "Missing Authorization header; send `Authorization: Bearer <API key>`.",
        undefined,
        challenge,
      );
    const match = BEARER.exec(header);
    if (!match)
      throw new ApiError(
        "unauthorized",
        "Malformed Authorization header; expected `Bearer <API key>`.",
        undefined,
        challenge,
      );
    const key = await verified(keys, match[1]!);
    identified.set(req, { apiKey: match[1]!, key });
    res.locals.orgId = key.orgId;
    res.locals.apiKeyId = key.apiKeyId;
    next();
  };

  const admit: RequestHandler = async (req, res, next) => {
    let { apiKey, key } = identified.get(req)!;
    const readKey = read?.(req, res);
    for (let attempt = 1; attempt <= MAX_VERIFICATIONS; attempt++) {
      const verdict = await limit.take(key.orgId, key.mark, { read: readKey });
      if (verdict.kind === "stale") {
        keys.forgetOrg(key.orgId);
        key = await verified(keys, apiKey);
        continue;
      }
      setRateHeaders(res, limit.perMinute, verdict);
      if (verdict.kind === "limited") {
        throw new ApiError(
          "rate_limited",
          `Rate limit of ${limit.perMinute} requests per minute exceeded.`,
          undefined,
          {
            "Retry-After": String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))),
          },
        );
      }
      if (readKey !== undefined)
        res.locals.prefetched = { key: readKey, value: verdict.read ?? null } satisfies PrefetchedEntry;
      keys.markUsed(key.apiKeyId);
      return next();
    }
    throw new ApiError("service_unavailable", "API keys are being revoked right now; retry in a moment.", undefined, {
      "Retry-After": "1",
    });
  };

  return { identify, admit };
}

async function verified(keys: VerifiedKeys, apiKey: string): Promise<VerifiedKey> {
  const key = await keys.lookup(apiKey);
  if (!key) throw new ApiError("unauthorized", "The API key is not valid or has been revoked.", undefined, challenge);
  return key;
}

function setRateHeaders(res: Response, perMinute: number, verdict: Exclude<RateVerdict, { kind: "stale" }>): void {
  res.setHeader("RateLimit-Limit", String(perMinute));
  res.setHeader("RateLimit-Remaining", String(verdict.kind === "allowed" ? verdict.remaining : 0));
  // Seconds until the bucket is full again.
  res.setHeader("RateLimit-Reset", String(Math.ceil(verdict.resetMs / 1000)));
}
