import type { RequestHandler } from "express";
import { Counter, Gauge, Histogram } from "prom-client";
import { processMetricsRegistry } from "@authsvc/logging";

/** Gateway metrics for Prometheus. No org ids or URLs in labels: they would explode the series count. */
export function createGatewayMetrics() {
  const registry = processMetricsRegistry("authsvc_gateway_");
  const requests = new Histogram({
    name: "authsvc_http_request_duration_seconds",
    help: "HTTP requests by route, method and status",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const auth = new Counter({
    name: "authsvc_login_answers_total",
    help: "Answers to POST /v1/login: from the cache, from a browser login, still pending (202), or an error code",
    labelNames: ["answer"] as const,
    registers: [registry],
  });

  const eventStreams = new Gauge({
    name: "authsvc_job_event_streams",
    help: "Clients following a job's events (GET /v1/jobs/:id/events) on this gateway",
    registers: [registry],
  });

  const observe: RequestHandler = (req, res, next) => {
    const end = requests.startTimer({ method: req.method });
    res.on("finish", () => {
      // The matched route pattern (not the raw path, which carries ids); unmatched requests share one label.
      const route = req.route?.path ? `${req.baseUrl}${req.route.path}` : "unmatched";
      end({ route, status: String(res.statusCode) });
    });
    next();
  };

  return { registry, observe, auth, eventStreams };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
