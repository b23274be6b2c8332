import type { RequestHandler } from "express";
import type { Redis } from "ioredis";
import { ApiError } from "./api-error";

const WINDOW_SECONDS = 60;

/** Fixed one-minute window per organization, counted in Redis so that every gateway replica shares it. */
export function rateLimit(redis: Redis, prefix: string, perMinute: number): RequestHandler {
  return async (_req, res, next) => {
    const orgId = res.locals.orgId as string;
    const window = Math.floor(Date.now() / 1000 / WINDOW_SECONDS);
    const key = `${prefix}:ratelimit:${orgId}:${window}`;
    const [[, count]] = (await redis.multi().incr(key).expire(key, WINDOW_SECONDS + 1).exec()) as [[null, number]];
    const resetIn = WINDOW_SECONDS - (Math.floor(Date.now() / 1000) % WINDOW_SECONDS);
    res.setHeader("RateLimit-Limit", String(perMinute));
    res.setHeader("RateLimit-Remaining", String(Math.max(0, perMinute - count)));
    res.setHeader("RateLimit-Reset", String(resetIn));
    if (count > perMinute) {
      throw new ApiError("rate_limited", `Rate limit of ${perMinute} requests per minute exceeded.`, undefined, {
        "Retry-After": String(resetIn),
      });
    }
    next();
  };
}
