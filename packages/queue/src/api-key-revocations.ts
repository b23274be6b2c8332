import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * Gateways keep verified API keys in memory for a short while; this mark is how a revocation reaches every
 * replica at once. Each revocation sets it to a new random value, and a gateway checks it in the same Redis
 * call that takes the request's rate-limit token: a cached key verified under another mark is verified in
 * Postgres again. Random rather than a counter, so a Redis that lost its data cannot bring an old value back.
 */
export function revocationMarkKey(prefix: string): string {
  return `${prefix}:apikeys:revocation-mark`;
}

/** The mark now; "" when none was ever set. */
export async function currentRevocationMark(redis: Redis, prefix: string): Promise<string> {
  return (await redis.get(revocationMarkKey(prefix))) ?? "";
}

/** Call after a key is revoked or deleted in Postgres: every gateway verifies its cached keys again. */
export async function announceKeyRevocation(redis: Redis, prefix: string): Promise<void> {
  await redis.set(revocationMarkKey(prefix), randomBytes(12).toString("base64url"));
}
