import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";

/** The applications under one origin, each at `/apps/<name>/`. */
export const PATH_APPS = ["tracker", "wiki"] as const;
export type PathApp = (typeof PATH_APPS)[number];

/**
 * Two applications on one origin under different paths (an issue tracker and a wiki behind one host),
 * with one user directory: the same username and password sign in to both, and each keeps its session in
 * a cookie of the same name scoped to its own path, which the other does not accept.
 */
export function pathApps(accounts: Accounts): Router {
  const r = Router();
  const appOf = new Map<string, PathApp>();
  for (const app of PATH_APPS) {
    const base = `/apps/${app}`;
    const form = (error?: string) =>
      page(
        `Sign in — ${app}`,
        `<h1>${app}: sign in</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${base}/login">
  <label>Username <input name="username" autocomplete="username"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  <button type="submit">Sign in</button>
</form>`,
      );
    r.get(`${base}/login`, (_req, res) => {
      res.type("html").send(form());
    });
    r.post(`${base}/login`, urlencoded({ extended: false }), (req, res) => {
      const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
      if (!accounts.attempt(`apps-${app}`, username, password)) {
        res.type("html").send(form("Invalid username or password."));
        return;
      }
      const token = accounts.openSession(username);
      appOf.set(token, app);
      res.cookie("JSESSIONID", token, { httpOnly: true, sameSite: "lax", path: base, maxAge: 3_600_000 });
      res.redirect(302, `${base}/home`);
    });
    r.get(`${base}/home`, (req, res) => {
      const token = readCookie(req.headers.cookie, "JSESSIONID");
      const user = appOf.get(token ?? "") === app ? accounts.sessionUser(token) : undefined;
      if (!user) {
        res.redirect(302, `${base}/login`);
        return;
      }
      res
        .type("html")
        .send(
          page(
            app,
            `<h1>${app}</h1><p>Signed in to ${app} as ${escapeHtml(user)}</p><a href="${base}/logout">Log out</a>`,
          ),
        );
    });
  }
  return r;
}
