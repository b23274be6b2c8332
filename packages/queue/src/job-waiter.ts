import { QueueEvents } from "bullmq";
import type { RedisClient } from "./redis-connections";
import { AUTH_QUEUE, authQueueName } from "./auth-queue-name";
import { queuePrefix } from "./redis-keys";
import type { WorkerRegions } from "./worker-regions";

type Waiter = () => void;

/**
 * One QueueEvents per process and a map of waiters, so a thousand waiting HTTP requests cost one Redis
 * subscription. A request waits until its job is settled: it ended, or it waits for a person's input (the
 * caller answers that). Events are only wake-ups (an end, or a job's progress: the hand-off reports one):
 * `isSettled` (the database) says whether it really is, which also covers a retry's intermediate failure
 * and an event that fired before the waiter was added. Events can be lost (Redis restarted, or lost the job
 * so its end was never published): every `recheckEveryMs` the waiting jobs are also looked up in the
 * database, in one query (`settledAmong`).
 *
 * A job of a worker region ends in that region's queue: with `regions`, the waiter also listens to the queue
 * of every region that has a worker (looked up with each recheck; one more Redis connection per region).
 */
export class JobWaiter {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly events: QueueEvents;
  private readonly regionEvents = new Map<string, { events: QueueEvents; connection: RedisClient }>();
  private readonly recheck: NodeJS.Timeout;

  constructor(
    private readonly connection: RedisClient,
    private readonly prefix: string,
    private readonly isSettled: (jobId: string) => Promise<boolean>,
    settledAmong?: (jobIds: string[]) => Promise<string[]>,
    recheckEveryMs = 3000,
    private readonly regions?: WorkerRegions,
  ) {
    this.events = this.listen(AUTH_QUEUE, connection);
    this.recheck = setInterval(() => {
      if (regions) this.listenToRegions().catch(() => undefined);
      const ids = [...this.waiters.keys()];
      if (!ids.length) return;
      const lookup = settledAmong ? settledAmong(ids) : Promise.resolve(ids);
      // wake() confirms each one with isSettled; a database that is away leaves the waiters as they are.
      lookup.then(
        (done) => done.forEach((id) => void this.wake(id)),
        () => undefined,
      );
    }, recheckEveryMs);
    this.recheck.unref();
  }

  private listen(queue: string, connection: RedisClient): QueueEvents {
    const events = new QueueEvents(queue, { connection, prefix: queuePrefix(this.prefix, queue), autorun: true });
    const wake = ({ jobId }: { jobId: string }) => void this.wake(jobId);
    events.on("completed", wake);
    events.on("failed", wake);
    events.on("progress", wake);
    return events;
  }

  // Each listener blocks its connection while it reads, so a region's has its own.
  private async listenToRegions(): Promise<void> {
    for (const region of await this.regions!.live()) {
      if (this.regionEvents.has(region)) continue;
      const own = this.connection.duplicate();
      this.regionEvents.set(region, { events: this.listen(authQueueName(region), own), connection: own });
    }
  }

  /** Listening to the auth queue, and to the queue of every region with a worker now. */
  async ready(): Promise<void> {
    if (this.regions) await this.listenToRegions();
    await Promise.all(
      [this.events, ...[...this.regionEvents.values()].map((r) => r.events)].map((e) => e.waitUntilReady()),
    );
  }

  get pending(): number {
    let n = 0;
    for (const set of this.waiters.values()) n += set.size;
    return n;
  }

  private async wake(jobId: string): Promise<void> {
    const set = this.waiters.get(jobId);
    if (!set?.size) return;
    if (!(await this.isSettled(jobId).catch(() => false))) return;
    for (const resolve of set) resolve();
    if (this.waiters.get(jobId) === set) this.waiters.delete(jobId);
  }

  /** True when the job settled (ended, or waits for a person) within `timeoutMs`, false when the time ran out first. */
  wait(jobId: string, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      let set = this.waiters.get(jobId);
      if (!set) this.waiters.set(jobId, (set = new Set()));
      const done = (finished: boolean) => {
        clearTimeout(timer);
        set!.delete(waiter);
        if (set!.size === 0 && this.waiters.get(jobId) === set) this.waiters.delete(jobId);
        resolve(finished);
      };
      const waiter = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      set.add(waiter);
      // It may have ended before we subscribed.
      void this.wake(jobId);
    });
  }

  async close(): Promise<void> {
    clearInterval(this.recheck);
    for (const [, set] of this.waiters) for (const resolve of set) resolve();
    this.waiters.clear();
    await this.events.close();
    for (const { events, connection } of this.regionEvents.values()) {
      await events.close();
      connection.disconnect();
    }
  }
}
