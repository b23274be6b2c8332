import { Router } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { base, sessionCookie } from "./kit";
import { defineCase } from "./login-case";

/**
 * Admin pages behind HTTP Basic authentication (a reverse proxy's `auth_basic`, a router's web interface):
 * a request without the right `Authorization` header is answered 401 with `WWW-Authenticate: Basic`, the
 * browser's own prompt. `withCookie`: the site then keeps a session cookie of its own (an application behind
 * the gate); without it, the session lives only in the header the browser sends again with every request.
 * Each new pair of credentials counts one attempt (a browser sends the same header again on every request).
 */
function httpBasic(accounts: Accounts, name: string, withCookie: boolean): Router {
  const r = Router();
  const verdicts = new Map<string, string | null>();
  const userOf = (header: string | undefined): string | null => {
    const m = /^Basic\s+(\S+)$/i.exec(header ?? "");
    if (!m) return null;
    if (!verdicts.has(m[1]!)) {
      const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
      const at = decoded.indexOf(":");
      const [user, password] = at < 0 ? [decoded, ""] : [decoded.slice(0, at), decoded.slice(at + 1)];
      verdicts.set(m[1]!, accounts.check(name, user, password) === "ok" ? user : null);
    }
    return verdicts.get(m[1]!) ?? null;
  };
  r.use(`${base(name)}/`, (req, res, next) => {
    const user = userOf(req.headers.authorization);
    if (!user)
      return res
        .status(401)
        .set("www-authenticate", `Basic realm="Admin area", charset="UTF-8"`)
        .type("html")
        .send("<h1>401 Unauthorized</h1>");
    if (withCookie && !accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(name)))) {
      res.cookie(sessionCookie(name), accounts.openSession(user), { httpOnly: true, sameSite: "lax", path: "/" });
    }
    res.locals.user = user;
    next();
  });
  r.get([`${base(name)}/admin/`, `${base(name)}/account`], (_req, res) => {
    res
      .type("html")
      .send(
        page("Admin", `<h1>Welcome, ${escapeHtml(String(res.locals.user))}</h1><p>Status: all services running.</p>`),
      );
  });
  return r;
}

const httpBasicCookie = (accounts: Accounts) => httpBasic(accounts, "http-basic", true);
const httpBasicOnly = (accounts: Accounts) => httpBasic(accounts, "http-basic-only", false);

export const httpAuthCases = defineCase({
  router: ({ accounts }) => [httpBasicCookie(accounts), httpBasicOnly(accounts)],
});
