import { processMetricsRegistry } from "./process-metrics";

describe("processMetricsRegistry", () => {
  it("reports the process's CPU, memory and event loop lag under the service's prefix", async () => {
    const registry = processMetricsRegistry("authsvc_test_");
    const text = await registry.metrics();
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_p99_seconds",
    ]) {
      expect(text).toMatch(new RegExp(`^authsvc_test_${name} `, "m"));
    }
    registry.clear();
  });
});
