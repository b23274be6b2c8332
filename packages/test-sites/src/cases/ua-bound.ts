import { createHash } from "node:crypto";
import { Router } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { base, formCase, plainForm, sessionCookie } from "./kit";
import { defineCase } from "./login-case";

const NAME = "ua-bound";
const hash = (userAgent: string | undefined) =>
  createHash("sha1")
    .update(userAgent ?? "")
    .digest("hex");

/**
 * A site that binds a session to the User-Agent it signed in with (Tiny Tiny RSS's shape: the session keeps
 * a hash of the header, and a request with another one is signed out: "Session failed to validate"). The
 * session works only in a browser that sends the same User-Agent.
 */
function uaBound(accounts: Accounts): Router {
  const r = Router();
  const boundTo = new Map<string, string>();
  r.get(`${base(NAME)}/account`, (req, res) => {
    const sid = readCookie(req.headers.cookie, sessionCookie(NAME));
    const user = accounts.sessionUser(sid);
    if (!user || !sid) return res.redirect(302, `${base(NAME)}/login`);
    if (boundTo.get(sid) !== hash(req.headers["user-agent"])) {
      accounts.endSession(sid);
      return res.redirect(
        302,
        `${base(NAME)}/login?error=${encodeURIComponent("Session failed to validate (UA changed).")}`,
      );
    }
    res
      .type("html")
      .send(
        page("Account", `<nav><a href="${base(NAME)}/logout">Sign out</a></nav><h1>Welcome, ${escapeHtml(user)}</h1>`),
      );
  });
  r.use(
    formCase(
      accounts,
      NAME,
      (error, req) =>
        page(
          "Sign in",
          `<h1>Sign in</h1>${plainForm(NAME, error ?? (req?.query.error ? String(req.query.error) : undefined))}`,
        ),
      {
        onSuccess: (req, res, username) => {
          const sid = accounts.openSession(username);
          boundTo.set(sid, hash(req.headers["user-agent"]));
          res.cookie(sessionCookie(NAME), sid, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 3_600_000 });
          res.redirect(302, `${base(NAME)}/account`);
        },
      },
    ),
  );
  return r;
}

export const uaBoundCase = defineCase({ router: ({ accounts }) => uaBound(accounts) });
