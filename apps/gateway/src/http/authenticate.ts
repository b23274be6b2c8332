import type { RequestHandler, Response } from "express";
import { ApiError } from "./api-error";
import type { OrgRateLimit, RateVerdict } from "./rate-limit";
import type { VerifiedKeys } from "./verified-keys";

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;
const challenge = { "WWW-Authenticate": 'Bearer realm="authsvc"' };
// A revocation announced while we verify sends us round again; more than this many in a row is not normal.
const MAX_VERIFICATIONS = 3;

/**
 * `Authorization: Bearer pk_…`, then the org's rate limit: sets `res.locals.orgId`. Unknown and revoked keys
 * get the same answer. The key is checked in memory (VerifiedKeys) and its revocation mark in the same Redis
 * call that takes the rate-limit token, so a cached request makes one round trip here and a revoked key is
 * refused from the first request after its revocation, on every replica.
 */
export function authenticate(keys: VerifiedKeys, limit: OrgRateLimit): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (!header) throw new ApiError("unauthorized", "Missing Authorization header; send `Authorization: Bearer <API key>`.", undefined, challenge);
    const match = BEARER.exec(header);
    if (!match) throw new ApiError("unauthorized", "Malformed Authorization header; expected `Bearer <API key>`.", undefined, challenge);
    for (let attempt = 1; attempt <= MAX_VERIFICATIONS; attempt++) {
      const key = await keys.lookup(match[1]!);
      if (!key) throw new ApiError("unauthorized", "The API key is not valid or has been revoked.", undefined, challenge);
      const verdict = await limit.take(key.orgId, key.mark);
      if (verdict.kind === "stale") {
        keys.forgetAll();
        continue;
      }
      setRateHeaders(res, limit.perMinute, verdict);
      if (verdict.kind === "limited") {
        throw new ApiError("rate_limited", `Rate limit of ${limit.perMinute} requests per minute exceeded.`, undefined, {
          "Retry-After": String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))),
        });
      }
      res.locals.orgId = key.orgId;
      res.locals.apiKeyId = key.apiKeyId;
      keys.markUsed(key.apiKeyId);
      return next();
    }
    throw new ApiError("service_unavailable", "API keys are being revoked right now; retry in a moment.", undefined, { "Retry-After": "1" });
  };
}

function setRateHeaders(res: Response, perMinute: number, verdict: Exclude<RateVerdict, { kind: "stale" }>): void {
  res.setHeader("RateLimit-Limit", String(perMinute));
  res.setHeader("RateLimit-Remaining", String(verdict.kind === "allowed" ? verdict.remaining : 0));
  // Seconds until the bucket is full again.
  res.setHeader("RateLimit-Reset", String(Math.ceil(verdict.resetMs / 1000)));
}
