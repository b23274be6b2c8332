import path from "node:path";
import express, { type Request } from "express";
import type { Queue } from "bullmq";
import type { Config } from "@authsvc/config";
import type { Database } from "@authsvc/db";
import type { TargetGuard } from "@authsvc/egress";
import type { Logger } from "@authsvc/logging";
import {
  announceKeyRevocation,
  type HandoffRelay,
  type SessionCache,
  type WebhookDeliveryPayload,
  type RedisClient,
} from "@authsvc/queue";
import { HANDOFF_PATH, handoffRoutes } from "./handoff/handoff-routes";
import { entryRoutes, type EntryLinkPort } from "./handoff/entry-routes";
import { accountRoutes } from "./accounts/account-routes";
import type { LoginRateLimit } from "./accounts/login-rate-limit";
import {
  expectedCsrfToken,
  loadSession,
  requirePlatformAdmin,
  requireUser,
  type SessionSettings,
} from "./accounts/signed-in";
import { adminRoutes } from "./admin/admin-routes";
import { overviewRoutes } from "./admin/overview-routes";
import { queueBoard } from "./admin/queue-board";
import type { ReplayJob } from "./admin/replay-port";
import { csrfGuard } from "./http/csrf";
import { errorPage, notFound } from "./http/error-page";
import { securityHeaders } from "./http/security-headers";
import { keyRoutes } from "./keys/key-routes";
import { orgContext } from "./orgs/org-context";
import { orgRoutes } from "./orgs/org-routes";
import { invitationRoutes, memberRoutes } from "./orgs/member-routes";
import { credentialRoutes } from "./data/credential-routes";
import { inboxRoutes } from "./data/inbox-routes";
import { jobRoutes } from "./data/job-routes";
import { webhookRoutes } from "./data/webhook-routes";

export const QUEUES_PATH = "/admin/queues";

export interface DashboardDeps {
  config: Config;
  db: Database;
  redis: RedisClient;
  log: Logger;
  limiter: LoginRateLimit;
  cache: SessionCache;
  guard: TargetGuard;
  webhookQueue: Queue<WebhookDeliveryPayload>;
  /** The queues platform staff see in bull-board. */
  queues: Queue[];
  replay: ReplayJob;
  isShuttingDown: () => boolean;
  /** The hosted hand-off pages' live views (frames in, the person's input out). */
  relay: HandoffRelay;
  /** Entry links' pages: a link's state, and the sign-in with what its end user typed. */
  entryLinks: EntryLinkPort;
}

export function createDashboard(deps: DashboardDeps) {
  const { config, db, redis, log } = deps;
  const settings: SessionSettings = {
    secure: config.dashboard.cookieSecure,
    ttlMs: config.dashboard.sessionTtlHours * 3600_000,
  };
  // The configured public address when there is one (behind a proxy), else the address we were called at.
  const publicUrl = (req: Request) => config.dashboard.url ?? `${req.protocol}://${req.get("host")}`;
  const ownOrigin = (req: Request) => new URL(publicUrl(req)).origin;

  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("trust proxy", config.gateway.trustProxy);
  app.use(securityHeaders(QUEUES_PATH, HANDOFF_PATH));
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      log.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
        },
        "request",
      );
    });
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.status(deps.isShuttingDown() ? 503 : 200).json({ ok: !deps.isShuttingDown() });
  });
  app.get("/readyz", async (_req, res) => {
    const checks = await Promise.allSettled([db.ping(), redis.ping()]);
    const ok = !deps.isShuttingDown() && checks.every((c) => c.status === "fulfilled");
    res
      .status(ok ? 200 : 503)
      .json({ ok, database: checks[0]!.status === "fulfilled", redis: checks[1]!.status === "fulfilled" });
  });
  app.use("/assets", express.static(path.join(__dirname, "assets"), { index: false, maxAge: "1h" }));
  // The hosted hand-off pages: for a person with a token, not a dashboard user (no session, no form posts).
  app.use(handoffRoutes({ db, relay: deps.relay, fingerprintKey: config.crypto.fingerprintKey, ownOrigin, log }));
  // Entry links' pages: for an end user with a token; their one form is checked by its origin.
  app.use(
    entryRoutes({
      db,
      jobs: deps.entryLinks,
      guard: deps.guard,
      fingerprintKey: config.crypto.fingerprintKey,
      ownOrigin,
      log,
    }),
  );

  app.use(express.urlencoded({ extended: false, limit: "32kb", parameterLimit: 500 }));
  app.use(loadSession(db, settings));
  app.use(
    csrfGuard({ ownOrigin, expectedToken: expectedCsrfToken, originOnly: (req) => req.path.startsWith(QUEUES_PATH) }),
  );

  app.use(accountRoutes(db, settings, deps.limiter));
  app.use(invitationRoutes(db));
  app.use(requireUser);
  app.use(orgRoutes(db));
  app.use(QUEUES_PATH, requirePlatformAdmin, queueBoard(QUEUES_PATH, deps.queues));
  app.use("/admin", requirePlatformAdmin);
  app.use(overviewRoutes(db, QUEUES_PATH));
  app.use(adminRoutes(db, deps.replay, QUEUES_PATH));
  app.use(
    "/o/:orgId",
    orgContext(db),
    keyRoutes(db, (orgId) => announceKeyRevocation(redis, config.redis.prefix, orgId)),
    jobRoutes(db),
    credentialRoutes(db, deps.cache),
    inboxRoutes(db),
    webhookRoutes(db, deps.guard, deps.webhookQueue),
    memberRoutes(db, publicUrl),
  );

  app.use(notFound);
  app.use(errorPage(log));
  return app;
}
