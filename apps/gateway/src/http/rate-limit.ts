import { orgKey, revocationMarkKey, ridingFailover, type RedisClient } from "@authsvc/queue";

const PERIOD_MS = 60_000;

/**
 * GCRA (a token bucket kept as one timestamp, the "theoretical arrival time") per organization: a burst of
 * up to `perMinute` requests, refilled at `perMinute` per minute, so no instant (a minute boundary included)
 * lets more than the limit through. The same call checks the org's API-key revocation mark first and takes no
 * token when it moved; an admitted request may read one more key of the org (KEYS[3] when ARGV[5] is 1, e.g. its
 * cached session) in the same call. `now` comes from the caller only in tests; otherwise Redis's clock, shared by every gateway replica.
 * Numbers go back as integers (Redis truncates Lua numbers).
 */
const SCRIPT = `
local mark = redis.call('GET', KEYS[2]) or ''
if mark ~= ARGV[1] then return {-1, mark} end
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
local limit = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
local interval = period / limit
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local newTat = tat + interval
-- 0.01 ms of slack: times are floats, and the limit-th request of a burst must not fall to rounding
if newTat - period > now + 0.01 then
  return {0, 0, math.ceil(tat - now), math.ceil(newTat - period - now)}
end
redis.call('SET', KEYS[1], string.format('%.6f', newTat), 'PX', math.ceil(newTat - now))
local read = false
if ARGV[5] == '1' then read = redis.call('GET', KEYS[3]) end
return {1, math.floor((period + 0.01 - (newTat - now)) / interval), math.ceil(newTat - now), 0, read}
`;

export type RateVerdict =
  /** The revocation mark is not the one the caller's key was verified under: verify again, no token was taken. */
  | { kind: "stale"; mark: string }
  /** `read`: the value of the key asked to be read with the token (null when it has none). */
  | { kind: "allowed"; remaining: number; resetMs: number; read?: string | null }
  | { kind: "limited"; resetMs: number; retryAfterMs: number };

type RateLimitRedis = RedisClient & {
  orgRateLimit(
    tatKey: string,
    markKey: string,
    readKey: string,
    mark: string,
    limit: number,
    periodMs: number,
    now: string,
    reads: string,
  ): Promise<[number, number | string, number?, number?, (string | null)?]>;
};

/**
 * The per-organization limit, shared by every gateway replica in Redis: one key and one round trip per request.
 * The bucket, the org's revocation mark and the key read with the token are all in the org's hash slot.
 */
export class OrgRateLimit {
  private readonly redis: RateLimitRedis;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    readonly perMinute: number,
  ) {
    if (!("orgRateLimit" in redis)) redis.defineCommand("orgRateLimit", { numberOfKeys: 3, lua: SCRIPT });
    this.redis = redis as RateLimitRedis;
  }

  /**
   * Takes one token of the org's bucket, unless the org's revocation mark is no longer `mark`; if admitted, reads
   * `options.read` (a key of the same org: `orgKey`).
   */
  async take(orgId: string, mark: string, options: { read?: string; nowMs?: number } = {}): Promise<RateVerdict> {
    const { read, nowMs } = options;
    // Every request passes here first, so it waits out a Redis failover here (REDIS_FAILOVER_WAIT_MS). A try that
    // failed over may have taken its token: a request may then count twice, never pass uncounted.
    const [code, a, b, c, value] = await ridingFailover(this.redis, () =>
      this.redis.orgRateLimit(
        orgKey(this.prefix, orgId, "ratelimit"),
        revocationMarkKey(this.prefix, orgId),
        // Without a read, the bucket stands in as the third key (never read): on a cluster every key of a call is in one slot.
        read ?? orgKey(this.prefix, orgId, "ratelimit"),
        mark,
        this.perMinute,
        PERIOD_MS,
        nowMs === undefined ? "" : String(nowMs),
        read === undefined ? "0" : "1",
      ),
    );
    if (code === -1) return { kind: "stale", mark: String(a) };
    if (code === 1)
      return read === undefined
        ? { kind: "allowed", remaining: Number(a), resetMs: b! }
        : { kind: "allowed", remaining: Number(a), resetMs: b!, read: value ?? null };
    return { kind: "limited", resetMs: b!, retryAfterMs: c! };
  }
}
