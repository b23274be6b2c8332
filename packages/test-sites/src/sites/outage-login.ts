import { json, Router } from "express";
import { loginPage } from "./classic-form";

/**
 * The classic login page on a site the tests take down and bring back: `/outage/:token/login` answers 503
 * while its token is down (`POST /__fixture/outage {token, down}`), the classic form otherwise. A job that
 * failed during the outage can then be replayed once the site is back.
 */
export function outageLogin(): Router {
  const down = new Set<string>();
  const r = Router();
  r.get("/outage/:token/login", (req, res) => {
    if (down.has(req.params.token)) {
      res.status(503).type("html").send("<h1>Service Unavailable</h1><p>We are down for maintenance.</p>");
      return;
    }
    res.type("html").send(loginPage());
  });
  r.post("/__fixture/outage", json(), (req, res) => {
    const { token, down: isDown } = (req.body ?? {}) as { token?: unknown; down?: unknown };
    if (typeof token !== "string" || !token) return void res.status(400).json({ error: "token is required" });
    if (isDown === true) down.add(token);
    else down.delete(token);
    res.status(204).end();
  });
  return r;
}
