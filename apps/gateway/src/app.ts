import express from "express";
import type { Config } from "@authsvc/config";
import { openApiDocument } from "@authsvc/contracts";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";
import type { JobEventFeed, SessionCache, RedisClient } from "@authsvc/queue";
import type { TargetGuard } from "@authsvc/egress";
import type { Logger } from "@authsvc/logging";
import { authenticate } from "./http/authenticate";
import { docsPage } from "./http/docs-page";
import { errorHandler, notFound } from "./http/error-handler";
import { idempotency } from "./http/idempotency";
import { jsonBody } from "./http/json-body";
import type { GatewayMetrics } from "./http/metrics";
import { OrgRateLimit } from "./http/rate-limit";
import { requestId } from "./http/request-id";
import type { VerifiedKeys } from "./http/verified-keys";
import type { AuthService } from "./auth/auth-service";
import { credentialRoutes } from "./credentials/credential-routes";
import { proxyRoutes } from "./credentials/proxy-routes";
import { webhookRoutes } from "./credentials/webhook-routes";
import { inboxRoutes } from "./inboxes/inbox-routes";
import { smsWebhook } from "./inboxes/sms-webhook";
import { authRoutes } from "./auth/auth-routes";
import { cachedLoginRead } from "./auth/cached-login-read";

export interface AppDeps {
  config: Config;
  db: Database;
  redis: RedisClient;
  auth: AuthService;
  cache: SessionCache;
  guard: TargetGuard;
  log: Logger;
  /** API keys verified in Postgres, kept in memory (the caller closes it: it writes lastUsedAt). */
  keys: VerifiedKeys;
  metrics: GatewayMetrics;
  /** Jobs' progress, followed for the SSE route (one subscriber connection per process). */
  feed: JobEventFeed;
  isShuttingDown: () => boolean;
}

export function createApp({
  config,
  db,
  redis,
  auth,
  cache,
  guard,
  log,
  keys,
  metrics,
  feed,
  isShuttingDown,
}: AppDeps) {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", config.gateway.trustProxy);
  app.use(requestId, metrics.observe);
  // Answers carry live sessions: no proxy or browser may keep a copy.
  app.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          requestId: res.locals.requestId,
          orgId: res.locals.orgId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(ms),
        },
        "request",
      );
    });
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.status(isShuttingDown() ? 503 : 200).json({ ok: !isShuttingDown() });
  });
  app.get("/readyz", async (_req, res) => {
    const checks = await Promise.allSettled([db.ping(), redis.ping()]);
    const ok = !isShuttingDown() && checks.every((c) => c.status === "fulfilled");
    res
      .status(ok ? 200 : 503)
      .json({ ok, database: checks[0]!.status === "fulfilled", redis: checks[1]!.status === "fulfilled" });
  });

  // For the cluster's Prometheus; keep /metrics off any public ingress (it carries no tenant data).
  app.get("/metrics", async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  // The API description is public, like the documentation it is generated into.
  app.get("/openapi.json", (_req, res) => {
    res.json(openApiDocument);
  });
  app.use(docsPage());

  // Called by Twilio, authenticated by its signature rather than an API key.
  app.use("/v1", smsWebhook(config, db, redis, log));
  // The body is parsed between the key check and the rate limit, so that a cached login's session is read
  // in the rate limit's Redis call.
  const { identify, admit } = authenticate(
    keys,
    new OrgRateLimit(redis, config.redis.prefix, config.gateway.rateLimitPerMinute),
    cachedLoginRead(auth),
  );
  app.use("/v1", identify, ...jsonBody(config.gateway.maxBodyBytes), admit);
  // After the rate limit: a retry counts like any request. A first request unanswered longer than any wait frees its key.
  const envelope = new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion));
  app.use(
    "/v1",
    idempotency(
      redis,
      config.redis.prefix,
      config.crypto.fingerprintKey,
      envelope,
      log,
      config.gateway.waitMs + 60_000,
    ),
  );
  app.use(
    "/v1",
    authRoutes(auth, config.gateway.waitMs, metrics, feed),
    inboxRoutes(db, config.mail.domain),
    credentialRoutes(db, cache, auth, config.gateway.waitMs, metrics),
    webhookRoutes(db, guard),
    proxyRoutes(db, config.targets.proxyAllow),
  );
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}
