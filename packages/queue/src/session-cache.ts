import type { Redis } from "ioredis";
import type { Envelope } from "@authsvc/crypto";
import type { SessionResponse } from "@authsvc/contracts";

/** A cache entry read ahead, in the gateway's rate-limit call: `value` null when there was none. */
export interface PrefetchedEntry {
  key: string;
  value: string | null;
}

/**
 * Sessions served without a browser. Keyed by org + fingerprint (collection, login page and an HMAC of the
 * credential), so a different password or another org never finds the entry; values are encrypted with the
 * key as AAD, so an entry copied under another key does not open.
 */
export class SessionCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly envelope: Envelope,
  ) {}

  /** The Redis key of an entry. */
  key(orgId: string, fingerprint: string): string {
    return `${this.prefix}:session:${orgId}:${fingerprint}`;
  }

  /** The entry, or null; `prefetched` when it is this entry's, read with the request's rate-limit token. */
  async get(orgId: string, fingerprint: string, prefetched?: PrefetchedEntry): Promise<SessionResponse | null> {
    const key = this.key(orgId, fingerprint);
    const sealed = prefetched?.key === key ? prefetched.value : await this.redis.get(key);
    if (!sealed) return null;
    try {
      return this.envelope.decryptJson<SessionResponse>(sealed, key);
    } catch {
      await this.redis.del(key); // sealed with a retired key or damaged: a miss, not an error
      return null;
    }
  }

  async set(orgId: string, fingerprint: string, state: SessionResponse, ttlSeconds: number): Promise<void> {
    const key = this.key(orgId, fingerprint);
    await this.redis.set(key, this.envelope.encryptJson(state, key), "EX", Math.max(1, Math.floor(ttlSeconds)));
  }

  /** Seconds the entry has left; 0 when there is none. */
  async ttlSeconds(orgId: string, fingerprint: string): Promise<number> {
    return Math.max(0, await this.redis.ttl(this.key(orgId, fingerprint)));
  }

  async delete(orgId: string, fingerprint: string): Promise<void> {
    await this.redis.del(this.key(orgId, fingerprint));
  }
}
