import { readFileSync } from "node:fs";
import path from "node:path";
import { createGatewayMetrics } from "../../apps/gateway/src/http/metrics";
import { createMailMetrics } from "../../apps/mail-in/src/mail-metrics";
import { createWorkerMetrics } from "../../apps/worker/src/worker-metrics";

// The Grafana dashboard shipped in infra/ charts only metrics the services register: a renamed metric
// fails here, not on an operator's empty panel.
interface Panel {
  type: string;
  title: string;
  datasource?: { uid: string };
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}

const dashboard = JSON.parse(readFileSync(path.join(__dirname, "authsvc-dashboard.json"), "utf8")) as {
  uid: string;
  panels: Panel[];
};
const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== "row");

type Registry = ReturnType<typeof createWorkerMetrics>["registry"];

/** Every series name a registry exposes: a histogram's _bucket, _sum and _count, a summary's _sum and _count. */
async function seriesNames(registry: Registry): Promise<string[]> {
  return (await registry.getMetricsAsJSON()).flatMap((m) => {
    const type = String(m.type);
    if (type === "histogram") return [`${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`];
    if (type === "summary") return [m.name, `${m.name}_sum`, `${m.name}_count`];
    return [m.name];
  });
}

describe("infra/grafana/authsvc-dashboard.json", () => {
  it("queries only metrics the gateway, the worker and mail-in register, through the dashboard's Prometheus variable", async () => {
    const registered = new Set([
      ...(await seriesNames(createGatewayMetrics().registry)),
      ...(await seriesNames(createWorkerMetrics().registry)),
      ...(await seriesNames(createMailMetrics().registry)),
    ]);
    expect(panels.length).toBeGreaterThan(10);
    for (const panel of panels) {
      expect([panel.title, panel.datasource?.uid]).toEqual([panel.title, "${datasource}"]);
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const { expr } of panel.targets!) {
        const names = expr.match(/\bauthsvc_[a-z0-9_]+/g) ?? [];
        expect([panel.title, names.length > 0]).toEqual([panel.title, true]);
        for (const name of names) expect([panel.title, name, registered.has(name)]).toEqual([panel.title, name, true]);
      }
    }
  });

  it("charts what the issue names: queue depth, waiting time, outcomes by code, browser recycles and memory", () => {
    const exprs = panels.flatMap((p) => p.targets!.map((t) => t.expr)).join("\n");
    for (const needed of [
      "authsvc_queue_jobs",
      "authsvc_queue_wait_seconds_bucket",
      "sum by (outcome) (rate(authsvc_login_duration_seconds_count",
      "authsvc_browser_recycles_total",
      "authsvc_browser_memory_bytes",
      "process_resident_memory_bytes",
    ]) {
      expect(exprs).toContain(needed);
    }
  });
});
