import { Router } from "express";
import { ApiError } from "../http/api-error";
import type { GatewayMetrics } from "../http/metrics";
import type { AuthService } from "./auth-service";
import { parseLoginRequest, type LoginCommand } from "./parse-login-request";
import { authCall, countedAnswer, pendingOrSession } from "./send-answer";
import { parseSignupRequest } from "./parse-signup-request";
import { compileValidator, inputAnswerSchema, type SignupResponse } from "@authsvc/contracts";
import type { JobEventFeed, PrefetchedEntry } from "@authsvc/queue";
import { jobEventsRoute } from "./job-events-route";

const JOB_ID = /^job_[0-9A-Za-z]{22}$/;
const validateInput = compileValidator(inputAnswerSchema);

export function authRoutes(auth: AuthService, maxWaitMs: number, metrics: GatewayMetrics, feed: JobEventFeed): Router {
  const r = Router();

  r.post("/login", async (req, res) => {
    // Parsed already, and its cached session read, when the request was admitted (cachedLoginRead).
    const command = () => (res.locals.loginCommand as LoginCommand | undefined) ?? parseLoginRequest(req.body);
    const answer = await countedAnswer(metrics, () =>
      auth.login(
        res.locals.orgId as string,
        command(),
        authCall(req, res, maxWaitMs),
        "login",
        res.locals.prefetched as PrefetchedEntry | undefined,
      ),
    );
    const done = pendingOrSession(req, res, answer);
    if (!done) return;
    res.set("X-Auth-Cache", done.source === "cache" ? "hit" : "miss");
    res.status(200).json(done.session);
  });

  r.post("/signup", async (req, res) => {
    const answer = await countedAnswer(
      metrics,
      () => auth.signup(res.locals.orgId as string, parseSignupRequest(req.body), authCall(req, res, maxWaitMs)),
      "signup",
    );
    const done = pendingOrSession(req, res, answer);
    if (!done) return;
    const created = done.session as SignupResponse;
    res.status(201).location(`${req.baseUrl}/credentials/${created.credentialId}`).json(created);
  });

  r.get("/jobs/:id", async (req, res) => {
    const job = JOB_ID.test(req.params.id) ? await auth.job(res.locals.orgId as string, req.params.id) : null;
    if (!job) throw new ApiError("not_found", "No such job.");
    res.json(job);
  });

  // A person's answer to what a job in needs_input asks; the job goes on with its page, and ends as always.
  r.post("/jobs/:id/input", async (req, res) => {
    const checked = validateInput(req.body ?? {});
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const orgId = res.locals.orgId as string;
    if (!JOB_ID.test(req.params.id)) throw new ApiError("not_found", "No such job.");
    const outcome = await auth.answerInput(orgId, req.params.id, checked.value);
    if (outcome === "not_found") throw new ApiError("not_found", "No such job.");
    if (typeof outcome === "object") {
      const field = Object.keys(checked.value)[0];
      throw ApiError.invalid([{ field: field ? `/${field}` : "/", message: outcome.wrong }]);
    }
    if (outcome === "not_waiting")
      throw new ApiError(
        "not_waiting_for_input",
        "This job is not waiting for input now (it ended, runs on, or an answer was given already); read GET /v1/jobs/{jobId}.",
      );
    res
      .status(202)
      .location(`${req.baseUrl}/jobs/${req.params.id}`)
      .json(await auth.job(orgId, req.params.id));
  });

  const events = jobEventsRoute(feed, (orgId, jobId) => auth.job(orgId, jobId), metrics.eventStreams);
  r.get("/jobs/:id/events", async (req, res) => {
    if (!JOB_ID.test(req.params.id)) throw new ApiError("not_found", "No such job.");
    await events(req, res);
  });

  return r;
}
