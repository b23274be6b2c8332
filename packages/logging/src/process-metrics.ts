import { Registry, collectDefaultMetrics } from "prom-client";

/**
 * How often the event loop's delay is sampled for `<prefix>nodejs_eventloop_lag_*` (prom-client's default
 * is every 10 ms). Each sample is a timer that wakes the process, so 100 wake-ups a second cost an idle
 * process about 0.25 CPU-seconds a minute on our 2-core machines (0.05 at 100 ms), in every gateway, worker
 * and mail-in pod. A loop held up longer than a sample's interval is still measured whole, which is what
 * the lag histogram is read for.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * A Prometheus registry holding what every service reports about its Node process (CPU, memory, heap, event
 * loop lag, handles), its metric names under `prefix` (e.g. "authsvc_worker_"); the service adds its own.
 */
export function processMetricsRegistry(prefix: string): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}
