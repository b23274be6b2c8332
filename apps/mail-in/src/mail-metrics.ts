import { Counter, Registry, collectDefaultMetrics } from "prom-client";

/** mail-in's metrics for Prometheus, served on its health port. */
export function createMailMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "authsvc_mailin_" });
  const messages = new Counter({
    name: "authsvc_mailin_messages_total",
    help: "Mail mail-in stored, refused (other domain, unknown mailbox, too large), deferred (a DKIM key not looked up yet: 451) or failed to store",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  return { registry, messages };
}
