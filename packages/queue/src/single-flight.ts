import { ridingFailover, type RedisClient } from "./redis-connections";
import type { Config } from "@authsvc/config";

const RELEASE_IF_OWNER = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;

/**
 * Identical concurrent logins share one job: the first request claims the fingerprint with its job id, the
 * others read that id and wait for the same job. The claim ends when the job ends (or its TTL lapses).
 */
export class SingleFlight {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(orgId: string, fingerprint: string): string {
    return `${this.prefix}:inflight:${orgId}:${fingerprint}`;
  }

  /**
   * Returns the id of the job that already owns the flight, or null when the caller runs its own job. A Redis
   * failover is waited out (`ridingFailover`) by claiming again: a claim an earlier try made holds `jobId`, so it
   * is read back as the caller's own (returned as `jobId`).
   */
  async claim(orgId: string, fingerprint: string, jobId: string, ttlMs: number): Promise<string | null> {
    const key = this.key(orgId, fingerprint);
    for (let i = 0; i < 3; i++) {
      if ((await ridingFailover(this.redis, () => this.redis.set(key, jobId, "PX", ttlMs, "NX"))) === "OK") return null;
      const owner = await ridingFailover(this.redis, () => this.redis.get(key));
      if (owner) return owner;
      // The owner released between our two calls: try to claim again.
    }
    // Lost the race three times in a row: give up de-duplicating and let the caller run a job of its own
    // (without a claim, so its release is a no-op).
    return null;
  }

  async release(orgId: string, fingerprint: string, jobId: string): Promise<void> {
    await ridingFailover(this.redis, () => this.redis.eval(RELEASE_IF_OWNER, 1, this.key(orgId, fingerprint), jobId));
  }
}

/**
 * How long a login's claim may live: every attempt (with a wait for mail or SMS), its backoff, and room
 * to wait in the queue. Past it a crashed owner's claim lapses and the next request runs its own job.
 */
export function flightTtlMs(config: Pick<Config, "worker" | "mfa" | "handoff">): number {
  const { attempts, jobTimeoutMs, backoffMs } = config.worker;
  // A hand-off waits once per job (it comes after the submit, which is never retried).
  return (
    attempts * (jobTimeoutMs + config.mfa.waitMs + 5000) +
    config.handoff.maxWaitMs +
    backoffMs * 2 ** attempts +
    5 * 60_000
  );
}
