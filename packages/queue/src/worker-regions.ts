import { queueConnection, type RedisClient } from "./redis-connections";
import { prefixOfQueue } from "./redis-keys";

/** How often a worker says again which regions it serves, and how long one saying lasts. */
export interface RegionAnnouncing {
  everyMs: number;
  lastsMs: number;
}

export const DEFAULT_REGION_ANNOUNCING: RegionAnnouncing = { everyMs: 5000, lastsMs: 15_000 };

// How often a start waiting for a region's first worker looks again.
const LOOK_EVERY_MS = 250;

/**
 * Which worker regions have a worker running, shared through Redis: each worker process says, every few
 * seconds, the regions it serves (one sorted set; a member is region and worker, scored by when that saying
 * lapses), so a worker that died drops out within `lastsMs` without anyone cleaning up after it. A job that
 * asks for a region is only queued when one of its workers is there (`awaitWorker`): otherwise it would wait
 * in a queue nobody takes from.
 */
export class WorkerRegions {
  private timer?: NodeJS.Timeout;
  private said: string[] = [];

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly timing: RegionAnnouncing = DEFAULT_REGION_ANNOUNCING,
  ) {}

  private get key(): string {
    return `${this.prefix}:worker-regions`;
  }

  /** Says, now and every `everyMs` until `withdraw`, that worker `name` serves these regions. */
  async announce(name: string, regions: readonly string[]): Promise<void> {
    this.said = regions.map((region) => `${region}\u0000${name}`);
    if (!this.said.length) return;
    const say = () =>
      this.redis.zadd(this.key, ...this.said.flatMap((member) => [Date.now() + this.timing.lastsMs, member]));
    await say();
    this.timer = setInterval(() => void say().catch(() => undefined), this.timing.everyMs);
    this.timer.unref();
  }

  /** Stops saying it (the worker is stopping): its regions' jobs are no longer queued for it. */
  async withdraw(): Promise<void> {
    clearInterval(this.timer);
    if (this.said.length) await this.redis.zrem(this.key, ...this.said);
    this.said = [];
  }

  /** The regions with a worker running now, sorted. */
  async live(): Promise<string[]> {
    const now = Date.now();
    await this.redis.zremrangebyscore(this.key, "-inf", now);
    const members = await this.redis.zrangebyscore(this.key, now, "+inf");
    return [...new Set(members.map((m) => m.slice(0, m.indexOf("\u0000"))))].sort();
  }

  /** Whether a worker of `region` runs now. */
  async has(region: string): Promise<boolean> {
    return (await this.live()).includes(region);
  }

  /** True once a worker of `region` runs, looking again until `waitMs` has passed (a worker may be starting); false then. */
  async awaitWorker(region: string, waitMs: number): Promise<boolean> {
    const giveUpAt = Date.now() + waitMs;
    for (;;) {
      if (await this.has(region)) return true;
      if (Date.now() >= giveUpAt) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOOK_EVERY_MS, Math.max(1, giveUpAt - Date.now()))));
    }
  }
}

/** The worker regions of the auth queue's fleet, on the queue's own connection and prefix (like `jobProgressOf`). */
export function workerRegionsOf(queue: { opts: { connection?: unknown; prefix?: string } }): WorkerRegions {
  return new WorkerRegions(queueConnection(queue), prefixOfQueue(queue));
}
