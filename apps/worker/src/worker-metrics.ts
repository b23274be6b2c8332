import type { Queue } from "bullmq";
import { Counter, Gauge, Histogram } from "prom-client";
import { processMetricsRegistry } from "@authsvc/logging";

// The states a queue's depth is told in: waiting to run (prioritized too), delayed (parked under an org or site
// cap, or backing off before a retry), running, and failed (kept a while for inspection and replay).
const QUEUE_STATES = ["waiting", "prioritized", "delayed", "active", "failed"] as const;

/** What the metrics read at each scrape, set once the worker has its queues and its browser (`watch`). */
interface Watched {
  queues: Queue[];
  browserMemoryBytes: () => number;
}

/** Worker metrics for Prometheus, served on the health port. */
export function createWorkerMetrics() {
  const registry = processMetricsRegistry("authsvc_worker_");
  let watched: Watched = { queues: [], browserMemoryBytes: () => 0 };
  return {
    registry,
    /** The queues whose depth this worker reports (those it takes jobs from), and its browser's memory. */
    watch(sources: Watched) {
      watched = sources;
    },
    queueJobs: new Gauge({
      name: "authsvc_queue_jobs",
      help: "Jobs in each queue this worker takes jobs from, by state (waiting, prioritized, delayed: parked under a cap or backing off, active, failed); every worker of a queue reports the same numbers (take the max)",
      labelNames: ["queue", "state"] as const,
      registers: [registry],
      async collect() {
        const counts = await Promise.all(
          watched.queues.map(async (q) => [q.name, await q.getJobCounts(...QUEUE_STATES)] as const),
        ).catch(() => null);
        // Redis away: no numbers rather than stale ones (the scrape itself still answers).
        this.reset();
        for (const [queue, byState] of counts ?? [])
          for (const state of QUEUE_STATES) this.set({ queue, state }, byState[state] ?? 0);
      },
    }),
    queueWait: new Histogram({
      name: "authsvc_queue_wait_seconds",
      help: "How long an auth job waited from being queued to its first run, parked under an org or site cap included (retries are not counted again)",
      labelNames: ["queue"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
    browserMemory: new Gauge({
      name: "authsvc_browser_memory_bytes",
      help: "Memory (PSS) of this worker's current Chromium, all its processes (BROWSER_RECYCLE_ABOVE_MIB replaces it above that)",
      registers: [registry],
      collect() {
        this.set(watched.browserMemoryBytes());
      },
    }),
    loginDuration: new Histogram({
      name: "authsvc_login_duration_seconds",
      help: "Browser login attempts by outcome (succeeded, or the failure code)",
      labelNames: ["outcome"] as const,
      buckets: [0.5, 1, 2, 3, 5, 8, 13, 21, 34, 55],
      registers: [registry],
    }),
    jobs: new Counter({
      name: "authsvc_worker_jobs_total",
      help: "Jobs this worker ended, by queue and outcome (completed, retried, failed)",
      labelNames: ["queue", "outcome"] as const,
      registers: [registry],
    }),
    parkedJobs: new Counter({
      name: "authsvc_worker_jobs_parked_total",
      help: "Times a job waited (was parked) because its organization or its site was at its concurrency cap",
      registers: [registry],
    }),
    activeLogins: new Gauge({
      name: "authsvc_active_logins",
      help: "Logins running in this worker now",
      registers: [registry],
    }),
    browserRestarts: new Counter({
      name: "authsvc_browser_restarts_total",
      help: "Chromium deaths (it is relaunched)",
      registers: [registry],
    }),
    browserRecycles: new Counter({
      name: "authsvc_browser_recycles_total",
      help: "Chromium replaced on purpose, by reason (jobs: BROWSER_RECYCLE_AFTER_JOBS, memory: BROWSER_RECYCLE_ABOVE_MIB)",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
    egressRefusals: new Counter({
      name: "authsvc_egress_refusals_total",
      help: "Browser connections the egress proxy refused",
      registers: [registry],
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
