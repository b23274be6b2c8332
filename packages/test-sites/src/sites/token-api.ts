import { Router, json } from "express";
import { type Accounts, escapeHtml } from "../accounts";

/**
 * The JSON API behind a single-page app's login: `POST <base>/api/login` answers a bearer token (or 401
 * with the site's words), `GET <base>/api/me` the user a token belongs to. Where the app keeps the token
 * is the app's business (localStorage, IndexedDB).
 */
export function tokenApi(accounts: Accounts, site: string, refusal: string): Router {
  const r = Router();
  r.post(`/${site}/api/login`, json(), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt(site, String(username), String(password))) {
      res.status(401).json({ error: refusal });
      return;
    }
    res.json({ token: accounts.openSession(String(username)), user: escapeHtml(String(username)) });
  });
  r.get(`/${site}/api/me`, (req, res) => {
    const user = accounts.sessionUser(req.headers.authorization?.replace(/^Bearer /, ""));
    if (!user) {
      res.status(401).json({ error: "not signed in" });
      return;
    }
    res.json({ user });
  });
  return r;
}
