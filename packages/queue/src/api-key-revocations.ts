import { randomBytes } from "node:crypto";
import { ridingFailover, type RedisClient } from "./redis-connections";
import { orgKey } from "./redis-keys";

/**
 * Gateways keep verified API keys in memory for a short while; this mark is how a revocation reaches every
 * replica at once. Each organization has one: each revocation of one of its keys sets it to a new random value,
 * and a gateway checks it in the same Redis call that takes the request's rate-limit token (the org's hash
 * slot): a cached key of that org verified under another mark is verified in Postgres again, and other orgs'
 * keys stay trusted. Random rather than a counter, so a Redis that lost its data cannot bring an old value back.
 */
export function revocationMarkKey(prefix: string, orgId: string): string {
  return orgKey(prefix, orgId, "apikeys-revoked");
}

/** The org's mark now; "" when none was ever set. Read on a new key's first request: a Redis failover is waited out. */
export async function currentRevocationMark(redis: RedisClient, prefix: string, orgId: string): Promise<string> {
  return (await ridingFailover(redis, () => redis.get(revocationMarkKey(prefix, orgId)))) ?? "";
}

/** Call after one of the org's keys is revoked or deleted in Postgres: every gateway verifies that org's cached keys again. */
export async function announceKeyRevocation(redis: RedisClient, prefix: string, orgId: string): Promise<void> {
  await redis.set(revocationMarkKey(prefix, orgId), randomBytes(12).toString("base64url"));
}
