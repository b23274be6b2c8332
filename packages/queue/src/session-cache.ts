import { ridingFailover, type RedisClient } from "./redis-connections";
import type { Envelope } from "@authsvc/crypto";
import { answerOf, type CapturedSession, type SessionResponse } from "@authsvc/contracts";
import { orgKey } from "./redis-keys";

/** A cache entry read ahead, in the gateway's rate-limit call: `value` null when there was none. */
export interface PrefetchedEntry {
  key: string;
  value: string | null;
}

/** A cached session: what a hit answers, the page the session check fetches, and when a check last found it alive. */
export interface CachedEntry {
  session: SessionResponse;
  signedInPage?: string;
  /** Milliseconds since the epoch; absent for entries cached before sessions were checked (due a check). */
  checkedAt?: number;
  /** The entry as stored: a write about this entry lands only while it is still the one stored. */
  sealed: string;
}

// SET (keeping the TTL) or DEL, only while the key still holds the value the caller read: a login that
// replaced the entry meanwhile is never overwritten or dropped by a check of the session it replaced.
const SET_IF_UNCHANGED = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("SET", KEYS[1], ARGV[2], "KEEPTTL") end return nil`;
const DEL_IF_UNCHANGED = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`;

type Sealed = CapturedSession & { checkedAt?: number };

/**
 * Sessions served without a browser. Keyed by org + fingerprint (collection, login page and an HMAC of the
 * credential), so a different password or another org never finds the entry; values are encrypted with the
 * key as AAD, so an entry copied under another key does not open. An entry keeps when the session check
 * last found it alive: the one value, so a hit stays one Redis read. Every call waits out a Redis failover
 * (`ridingFailover`): each may run twice without harm (a read, a write of the same value, a write only while
 * the entry is unchanged).
 */
export class SessionCache {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly envelope: Envelope,
  ) {}

  private ride<T>(call: (redis: RedisClient) => Promise<T>): Promise<T> {
    return ridingFailover(this.redis, () => call(this.redis));
  }

  /** The Redis key of an entry: in its organization's hash slot, where the gateway's rate-limit call reads it. */
  key(orgId: string, fingerprint: string): string {
    return orgKey(this.prefix, orgId, "session", fingerprint);
  }

  /** The entry, or null; `prefetched` when it is this entry's, read with the request's rate-limit token. */
  async get(orgId: string, fingerprint: string, prefetched?: PrefetchedEntry): Promise<CachedEntry | null> {
    const key = this.key(orgId, fingerprint);
    const sealed = prefetched?.key === key ? prefetched.value : await this.ride((r) => r.get(key));
    if (!sealed) return null;
    let value: Sealed;
    try {
      value = this.envelope.decryptJson<Sealed>(sealed, key);
    } catch {
      await this.ride((r) => r.del(key)); // sealed with a retired key or damaged: a miss, not an error
      return null;
    }
    const { checkedAt, ...captured } = value;
    return { session: answerOf(captured), signedInPage: captured.signedInPage, checkedAt, sealed };
  }

  /** Caches a session a login just signed in with: checked now, by that login. */
  async set(
    orgId: string,
    fingerprint: string,
    state: CapturedSession,
    ttlSeconds: number,
    checkedAt = Date.now(),
  ): Promise<void> {
    const key = this.key(orgId, fingerprint);
    const value: Sealed = { ...state, checkedAt };
    const sealed = this.envelope.encryptJson(value, key);
    await this.ride((r) => r.set(key, sealed, "EX", Math.max(1, Math.floor(ttlSeconds))));
  }

  /** Records a check that found the entry alive, keeping its TTL; nothing when the entry was replaced or dropped meanwhile. */
  async markChecked(orgId: string, fingerprint: string, entry: CachedEntry, checkedAt = Date.now()): Promise<void> {
    const key = this.key(orgId, fingerprint);
    const value: Sealed = {
      ...entry.session,
      ...(entry.signedInPage ? { signedInPage: entry.signedInPage } : {}),
      checkedAt,
    };
    const sealed = this.envelope.encryptJson(value, key);
    await this.ride((r) => r.eval(SET_IF_UNCHANGED, 1, key, entry.sealed, sealed));
  }

  /** Drops the entry a check found signed out, unless a login replaced it meanwhile. */
  async dropIfUnchanged(orgId: string, fingerprint: string, entry: CachedEntry): Promise<void> {
    await this.ride((r) => r.eval(DEL_IF_UNCHANGED, 1, this.key(orgId, fingerprint), entry.sealed));
  }

  /** Seconds the entry has left; 0 when there is none. */
  async ttlSeconds(orgId: string, fingerprint: string): Promise<number> {
    return Math.max(0, await this.ride((r) => r.ttl(this.key(orgId, fingerprint))));
  }

  async delete(orgId: string, fingerprint: string): Promise<void> {
    await this.ride((r) => r.del(this.key(orgId, fingerprint)));
  }
}
