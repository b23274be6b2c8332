import { Router } from "express";
import { ApiError } from "./http/api-error";
import type { GatewayMetrics } from "./http/metrics";
import type { LoginService } from "./login/login-service";
import { parseLoginRequest } from "./login/parse-login-request";
import { preferredWaitMs } from "./login/prefer-wait";
import { parseSignupRequest } from "./signup/parse-signup-request";
import type { SignupResponse } from "@authsvc/contracts";

const JOB_ID = /^job_[0-9A-Za-z]{22}$/;

export function apiRoutes(logins: LoginService, maxWaitMs: number, metrics: GatewayMetrics): Router {
  const r = Router();

  r.post("/login", async (req, res) => {
    let answer;
    try {
      const cmd = parseLoginRequest(req.body);
      answer = await logins.login(res.locals.orgId as string, cmd, preferredWaitMs(req.get("prefer"), maxWaitMs), res.locals.requestId as string);
    } catch (err) {
      metrics.logins.inc({ answer: err instanceof ApiError ? err.code : "internal_error" });
      throw err;
    }
    metrics.logins.inc({ answer: answer.kind === "pending" ? "pending" : answer.source });
    if (answer.kind === "pending") {
      res.status(202).location(`${req.baseUrl}/jobs/${answer.job.jobId}`).set("X-Job-Id", answer.job.jobId).json(answer.job);
      return;
    }
    res.set("X-Auth-Cache", answer.source === "cache" ? "hit" : "miss");
    if (answer.jobId) res.set("X-Job-Id", answer.jobId);
    res.status(200).json(answer.session);
  });

  r.post("/signup", async (req, res) => {
    let answer;
    try {
      const cmd = parseSignupRequest(req.body);
      answer = await logins.signup(res.locals.orgId as string, cmd, preferredWaitMs(req.get("prefer"), maxWaitMs), res.locals.requestId as string);
    } catch (err) {
      metrics.logins.inc({ answer: err instanceof ApiError ? err.code : "internal_error" });
      throw err;
    }
    metrics.logins.inc({ answer: answer.kind === "pending" ? "pending" : "signup" });
    if (answer.kind === "pending") {
      res.status(202).location(`${req.baseUrl}/jobs/${answer.job.jobId}`).set("X-Job-Id", answer.job.jobId).json(answer.job);
      return;
    }
    const created = answer.session as SignupResponse;
    if (answer.jobId) res.set("X-Job-Id", answer.jobId);
    res.status(201).location(`${req.baseUrl}/credentials/${created.credentialId}`).json(created);
  });

  r.get("/jobs/:id", async (req, res) => {
    const job = JOB_ID.test(req.params.id) ? await logins.job(res.locals.orgId as string, req.params.id) : null;
    if (!job) throw new ApiError("not_found", "No such job.");
    res.json(job);
  });

  return r;
}
