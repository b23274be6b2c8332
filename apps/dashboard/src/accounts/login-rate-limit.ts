import { randomBytes } from "node:crypto";
import type { RedisClient } from "@authsvc/queue";

export interface LoginLimits {
  windowMs: number;
  /** Failed sign-ins per email address in the window. */
  perEmail: number;
  /** Failed sign-ins (and sign-ups) per client address in the window. */
  perIp: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60_000, perEmail: 10, perIp: 50 };

/**
 * Sign-in attempts that failed, per email and per client address, in a sliding window (a Redis sorted set
 * of attempt times per key, shared by every dashboard replica). Full: the sign-in is refused before the
 * password is checked, so guessing is bounded however fast the attempts come.
 */
export class LoginRateLimit {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
  ) {}

  private keys(email: string, ip: string): Array<[string, number]> {
    return [
      [`${this.prefix}:dashboard:login:email:${email.trim().toLowerCase()}`, this.limits.perEmail],
      [`${this.prefix}:dashboard:login:ip:${ip}`, this.limits.perIp],
    ];
  }

  /** Seconds to wait when either window is full; 0 when the attempt may go ahead. */
  async retryAfter(email: string, ip: string): Promise<number> {
    const now = Date.now();
    let wait = 0;
    for (const [key, limit] of this.keys(email, ip)) {
      const [, [, count], [, oldest]] = (await this.redis
        .multi()
        .zremrangebyscore(key, 0, now - this.limits.windowMs)
        .zcard(key)
        .zrange(key, 0, 0, "WITHSCORES")
        .exec()) as [unknown, [unknown, number], [unknown, string[]]];
      if (count >= limit) wait = Math.max(wait, Math.ceil((Number(oldest[1]) + this.limits.windowMs - now) / 1000));
    }
    return wait;
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const now = Date.now();
    // A transaction per key: on a Redis Cluster the two keys may live on different nodes.
    await Promise.all(
      this.keys(email, ip).map(([key]) =>
        this.redis
          .multi()
          .zadd(key, now, `${now}-${randomBytes(4).toString("hex")}`)
          .pexpire(key, this.limits.windowMs)
          .exec(),
      ),
    );
  }
}
