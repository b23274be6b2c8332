import type { Job, Worker } from "bullmq";

/**
 * WORKER_CONCURRENCY browser jobs per worker process, however many queues it takes from (the auth queue and
 * one per region it serves: BullMQ's concurrency is per queue). Each queue's worker is allowed to fetch only
 * while the process has room — its concurrency is retuned to what it runs plus the process's free slots — and
 * a job fetched when another queue took the last slot meanwhile waits here for one (its claim is renewed
 * meanwhile; it has not been opened). With one queue this never binds.
 *
 * BullMQ reads a raised concurrency when that queue's worker next looks for a job (after one of its own
 * ends): until then a freed slot may go unused by it, and its queue's job waits for another process, or
 * about one running job. A lowered one binds at once.
 */
export class ProcessSlots {
  private readonly running = new Map<string, number>();
  private readonly waiting: Array<() => void> = [];
  private workers: Worker[] = [];
  private total = 0;

  constructor(readonly limit: number) {}

  /** The queues' workers whose concurrency follows the process's room. */
  attach(workers: Worker[]): void {
    this.workers = workers;
    this.retune();
  }

  /** Runs `process` in one of the process's slots, once there is one. */
  around<R>(process: (job: Job, token?: string) => Promise<R>) {
    return async (job: Job, token?: string): Promise<R> => {
      await this.take(job.queueName);
      try {
        return await process(job, token);
      } finally {
        this.give(job.queueName);
      }
    };
  }

  private async take(queue: string): Promise<void> {
    while (this.total >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.total++;
    this.running.set(queue, (this.running.get(queue) ?? 0) + 1);
    this.retune();
  }

  private give(queue: string): void {
    this.total--;
    this.running.set(queue, (this.running.get(queue) ?? 1) - 1);
    this.retune();
    this.waiting.shift()?.();
  }

  // BullMQ needs a concurrency of 1 at least, so a queue with nothing running may fetch one job when the
  // process is full; that job waits in `take`.
  private retune(): void {
    const free = Math.max(0, this.limit - this.total);
    for (const worker of this.workers)
      worker.concurrency = Math.max(1, Math.min(this.limit, (this.running.get(worker.name) ?? 0) + free));
  }
}
