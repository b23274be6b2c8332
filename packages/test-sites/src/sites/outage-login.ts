import { json, Router } from "express";
import { loginPage } from "./classic-form";

/**
 * A login page that is down (503) while a test says so: `POST /__fixture/outage {token, down}`. The
 * classic form otherwise (it posts to /classic/login), so a login that failed during the outage succeeds
 * once the site is back — what a replay of a `target_unreachable` job needs.
 */
export function outageLogin(): Router {
  const down = new Set<string>();
  const r = Router();
  r.post("/__fixture/outage", json(), (req, res) => {
    const { token, down: isDown } = req.body as { token?: unknown; down?: unknown };
    if (typeof token !== "string" || typeof isDown !== "boolean") return void res.status(400).json({ error: "token (string) and down (boolean) please" });
    if (isDown) down.add(token);
    else down.delete(token);
    res.status(204).end();
  });
  r.get("/outage/:token/login", (req, res) => {
    if (down.has(req.params.token)) return void res.status(503).type("html").send("<h1>Service Unavailable</h1>");
    res.type("html").send(loginPage());
  });
  return r;
}
