import type { Queue } from "bullmq";
import { ACQUIRE, ADMIT, HEADS } from "./job-gate-scripts";
import { queueConnection, type RedisClient } from "./redis-connections";

/**
 * Running browser jobs allowed at once, across every worker process: per organization (one org's burst
 * must not take every worker) and per target site (a site must not see a crowd of parallel logins from
 * us). 0 means no cap.
 */
export interface GateCaps {
  perOrg: number;
  perSite: number;
}

/** A job's place at the gate: its id, whose it is, and the site it logs in to (absent in jobs queued before sites were known). */
export interface GateSlot {
  jobId: string;
  orgId: string;
  site?: string;
}

export interface GateTiming {
  /** How long a running job's slot lives without renewal: a crashed worker's slot frees itself after this. */
  leaseMs: number;
  /** How long a parked job waits at most before it checks again (a lost promotion, an expired lease). */
  recheckMs: number;
}

export const DEFAULT_GATE_TIMING: GateTiming = { leaseMs: 30_000, recheckMs: 30_000 };

/**
 * The site a login counts against: the login page's host name, lowercased, without its port. A host, not a
 * registrable domain: `accounts.example.com` and `shop.example.com` are often separate servers with their
 * own limits, and the host needs no public-suffix list. Undefined for a URL that does not parse.
 */
export function gateSite(loginUrl: string): string | undefined {
  try {
    return new URL(loginUrl).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** BullMQ's largest priority (2^21). */
const MAX_PRIORITY = 2_097_152;

/**
 * The queue priority of a job at place `place` in its organization's line (lower runs first; BullMQ takes the
 * lowest, and among equals the one that entered its prioritized set first). A worker that frees a slot so takes the job of the organization with the
 * fewest jobs running or let in ahead of it: an organization's first job goes ahead of every other org's second,
 * whatever the other sends (fair share between organizations).
 */
export function fairPriority(place: number): number {
  return Math.max(1, Math.min(MAX_PRIORITY, Math.floor(place)));
}

type Cap = "org" | "site";
const WAITING_TTL_MS = 24 * 3600_000;

/**
 * Concurrency caps for browser jobs, shared by every worker and gateway through Redis. Per org and per
 * site: a sorted set of running jobs (scored by lease end) and one of waiting jobs (scored by when they
 * started to wait). A worker `acquire`s both slots before it opens a job; a job that does not get them is
 * parked (a delayed BullMQ job, which costs no attempt) and woken by `promoteWaiting` when a slot frees —
 * or after `recheckMs` at the latest, in case that promotion was lost.
 */
export class JobGate {
  constructor(
    private readonly redis: RedisClient,
    private readonly queue: Queue,
    readonly caps: GateCaps,
    readonly timing: GateTiming = DEFAULT_GATE_TIMING,
  ) {}

  private key(cap: Cap, slot: GateSlot, set: "running" | "waiting" | "admitted" | "reserved" | "line"): string {
    // Each queue (a worker region's) has its own gate: the caps hold per region, and a release only wakes
    // jobs of its own queue (`promoteWaiting` looks them up there). Under the queue's prefix, so in its hash slot.
    const gate = `${this.queue.opts.prefix ?? "bull"}:gate`;
    // A job without a site is never held by a site cap (see `capOf`); its keys are only placeholders.
    return cap === "org" ? `${gate}:org:${slot.orgId}:${set}` : `${gate}:site:${slot.site ?? ""}:${set}`;
  }

  private capOf(cap: Cap, slot: GateSlot): number {
    return cap === "org" ? this.caps.perOrg : slot.site ? this.caps.perSite : 0;
  }

  /**
   * At enqueue time: `runNow` when the job may be queued to run now, false when it was put on its org's waiting
   * list (queue it delayed); `priority`, its queue priority (`fairPriority`) from its place in its org's line.
   */
  async admit(slot: GateSlot): Promise<{ runNow: boolean; priority: number }> {
    const now = Date.now();
    const keys = (["running", "waiting", "admitted", "reserved", "line"] as const).map((set) =>
      this.key("org", slot, set),
    );
    // An admitted job holds its place until a worker picks it, or for a minute if none does.
    const [runNow, place] = (await this.redis.eval(
      ADMIT,
      keys.length,
      ...keys,
      slot.jobId,
      now,
      this.caps.perOrg,
      now + 60_000,
      WAITING_TTL_MS,
    )) as [number, number];
    return { runNow: runNow === 1, priority: fairPriority(place) };
  }

  /** Takes a slot under both caps, or none and puts the job on the waiting list of each cap that holds it. */
  async acquire(slot: GateSlot): Promise<boolean> {
    const now = Date.now();
    const org = (["running", "waiting", "admitted", "reserved"] as const).map((set) => this.key("org", slot, set));
    const keys = [
      ...org,
      this.key("site", slot, "running"),
      this.key("site", slot, "waiting"),
      this.key("org", slot, "line"),
    ];
    // A parked job checks again within 1.25 recheck periods, renewing its reservation; a vanished one's lapses.
    const args = [
      slot.jobId,
      now,
      now + this.timing.leaseMs,
      this.capOf("org", slot),
      this.capOf("site", slot),
      WAITING_TTL_MS,
      now + 2 * this.timing.recheckMs,
    ];
    return (await this.redis.eval(ACQUIRE, keys.length, ...keys, ...args)) === 1;
  }

  /** Extends a running job's slots; called while it runs, every third of the lease. */
  async renew(slot: GateSlot): Promise<void> {
    const until = Date.now() + this.timing.leaseMs;
    await this.redis
      .multi()
      .zadd(this.key("org", slot, "running"), until, slot.jobId)
      .zadd(this.key("site", slot, "running"), until, slot.jobId)
      .exec();
  }

  /** Frees a job's slots and wakes the jobs waiting for them. */
  async release(slot: GateSlot): Promise<void> {
    await this.redis
      .multi()
      .zrem(this.key("org", slot, "running"), slot.jobId)
      .zrem(this.key("site", slot, "running"), slot.jobId)
      .exec();
    await this.promoteWaiting(slot);
  }

  /** Takes a job off every list of the gate (its start was rolled back, or it no longer exists). */
  async forget(slot: GateSlot): Promise<void> {
    const sets = (["org", "site"] as Cap[]).flatMap((cap) =>
      (["running", "waiting"] as const).map((set) => this.key(cap, slot, set)),
    );
    const m = this.redis.multi();
    for (const key of [...sets, this.key("org", slot, "admitted"), this.key("org", slot, "reserved")])
      m.zrem(key, slot.jobId);
    await m.exec();
    // Not the org's newest job in line any more, if it was.
    await this.redis.eval(
      `if redis.call("HGET", KEYS[1], "job") == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`,
      1,
      this.key("org", slot, "line"),
      slot.jobId,
    );
  }

  /** When a parked job checks again (jittered, so jobs parked together do not all wake together). */
  recheckAt(): number {
    return Date.now() + Math.round(this.timing.recheckMs * (0.75 + Math.random() * 0.5));
  }

  /**
   * Moves the waiting jobs that fit in the free slots of this slot's org and site from delayed to the
   * queue; one promoted for its org goes with its place in the org's line now (its priority). Jobs that no
   * longer exist or have ended are dropped from the lists; a job already queued or running is left alone (it
   * checks the gate itself). Called after a release, and after a job was parked (a slot may have freed between
   * its check and its parking, when its promotion could not work yet).
   */
  async promoteWaiting(slot: GateSlot): Promise<void> {
    for (const cap of ["org", "site"] as Cap[]) {
      if (this.capOf(cap, slot) <= 0) continue;
      // Each pass drops at least one stale entry or stops; a few passes cover what one release frees.
      for (let pass = 0; pass < 5; pass++) {
        const keys = [
          this.key(cap, slot, "waiting"),
          this.key(cap, slot, "running"),
          ...(cap === "org" ? [this.key(cap, slot, "admitted"), this.key(cap, slot, "reserved")] : []),
        ];
        const heads = (await this.redis.eval(HEADS, keys.length, ...keys, Date.now(), this.capOf(cap, slot))) as Array<
          string | number
        >;
        let dropped = false;
        for (let i = 0; i < heads.length; i += 2) {
          const id = String(heads[i]);
          const job = await this.queue.getJob(id);
          const state = job ? await job.getState() : "unknown";
          // A head of its org's line goes with its place now, whether it waits delayed or BullMQ already moved it
          // back to the queue (its recheck came first, with the place it had when it was parked). A job waiting for
          // its site keeps its priority: its place in its org's line is not this site's.
          if (cap === "org" && (state === "delayed" || state === "prioritized" || state === "waiting")) {
            await job!.changePriority({ priority: fairPriority(Number(heads[i + 1])) }).catch(() => undefined);
          }
          if (state === "delayed") await job!.promote().catch(() => undefined);
          else if (state === "completed" || state === "failed" || state === "unknown") {
            await this.redis.zrem(this.key(cap, slot, "waiting"), id);
            dropped = true;
          }
        }
        if (!dropped) break;
      }
    }
  }
}

const gates = new WeakMap<Queue, JobGate>();

/** The gate of an auth queue (one per queue object), on the queue's own Redis connection and prefix. */
export function jobGateOf(queue: Queue, caps: GateCaps, timing?: GateTiming): JobGate {
  const known = gates.get(queue);
  if (
    known &&
    known.caps.perOrg === caps.perOrg &&
    known.caps.perSite === caps.perSite &&
    (!timing || known.timing === timing)
  )
    return known;
  const gate = new JobGate(queueConnection(queue), queue, caps, timing);
  gates.set(queue, gate);
  return gate;
}
