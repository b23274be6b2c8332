import { loginPageOf, type SessionResponse } from "@authsvc/contracts";
import type { PrefetchedEntry } from "@authsvc/queue";
import type { JobDeps } from "./job-deps";
import { loginFingerprint, originFingerprint, type SessionIdentity } from "./session-keys";

/**
 * The session cached for a login of this identity, or null. A session cached before sessions were keyed
 * by login page, under the origin's key, is served (and copied under the page's key) only when the job
 * that cached it logged in on this same login page, since another application of the origin may have
 * cached it. Such entries end with their TTL. `prefetched`: the entry as the gateway read it ahead.
 */
export async function cachedSession(deps: Pick<JobDeps, "db" | "cache" | "config">, orgId: string, login: SessionIdentity, prefetched?: PrefetchedEntry): Promise<SessionResponse | null> {
  const { cache, db, config } = deps;
  const key = loginFingerprint(config.crypto.fingerprintKey, orgId, login);
  const cached = await cache.get(orgId, key, prefetched);
  if (cached) return cached;
  const legacy = originFingerprint(config.crypto.fingerprintKey, orgId, login);
  const old = await cache.get(orgId, legacy);
  if (!old) return null;
  const loginUrl = await db.authJobs.succeededLoginUrl(orgId, legacy);
  if (!loginUrl || loginPageOf(loginUrl) !== login.loginPage) return null;
  const ttl = await cache.ttlSeconds(orgId, legacy);
  if (ttl > 0) await cache.set(orgId, key, old, ttl);
  return old;
}
