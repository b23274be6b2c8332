import { Counter } from "prom-client";
import { processMetricsRegistry } from "@authsvc/logging";

/** mail-in's metrics for Prometheus, served on its health port. */
export function createMailMetrics() {
  const registry = processMetricsRegistry("authsvc_mailin_");
  const messages = new Counter({
    name: "authsvc_mailin_messages_total",
    help: "Mail mail-in stored, refused (other domain, unknown mailbox, too large), deferred (a DKIM key not looked up yet: 451) or failed to store",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  return { registry, messages };
}
