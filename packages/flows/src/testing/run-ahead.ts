/** How a job ended: its value or what it threw. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * Runs a test file's browser jobs several at a time, ahead of the tests that assert on them. Each test
 * registers its job as the file is collected (so jobs run in the order the tests do) and awaits only its
 * own job's outcome, so a failure is still reported by the test it belongs to. Logins spend most of
 * their time waiting on pages, so a few at once, each in a browser context of its own, take little longer
 * than one. Jobs start once `start` runs (from a `beforeAll` after the one that opens the browser).
 */
export class RunAhead {
  private readonly queue: Array<() => void> = [];
  private running = 0;
  private started = false;

  constructor(private readonly concurrency: number) {}

  /** A job to run once started; the returned function gives its outcome, throwing what the job threw. */
  add<T>(job: () => Promise<T>): () => Promise<T> {
    let settle!: (s: Settled<T>) => void;
    const outcome = new Promise<Settled<T>>((resolve) => (settle = resolve));
    this.queue.push(() => {
      job()
        .then(
          (value) => settle({ ok: true, value }),
          (error: unknown) => settle({ ok: false, error }),
        )
        .finally(() => {
          this.running--;
          this.next();
        });
    });
    return async () => {
      if (!this.started) throw new Error("RunAhead: jobs were never started (call start() in a beforeAll)");
      const s = await outcome;
      if (!s.ok) throw s.error;
      return s.value;
    };
  }

  start(): void {
    this.started = true;
    this.next();
  }

  private next(): void {
    while (this.started && this.running < this.concurrency && this.queue.length > 0) {
      this.running++;
      this.queue.shift()!();
    }
  }
}
