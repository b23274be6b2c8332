import { Router } from "express";
import { loginPage } from "./classic-form";

/** A login page that answers 503 the first time each token is seen, then the classic form: a passing outage. */
export function flakyLogin(): Router {
  const seen = new Set<string>();
  const r = Router();
  r.get("/flaky/:token/login", (req, res) => {
    if (!seen.has(req.params.token)) {
      seen.add(req.params.token);
      res.status(503).type("html").send("<h1>Service Unavailable</h1>");
      return;
    }
    res.type("html").send(loginPage());
  });
  return r;
}
