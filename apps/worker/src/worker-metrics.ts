import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Worker metrics for Prometheus, served on the health port. */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "authsvc_worker_" });
  return {
    registry,
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
    activeLogins: new Gauge({ name: "authsvc_active_logins", help: "Logins running in this worker now", registers: [registry] }),
    browserRestarts: new Counter({ name: "authsvc_browser_restarts_total", help: "Chromium deaths (it is relaunched)", registers: [registry] }),
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
