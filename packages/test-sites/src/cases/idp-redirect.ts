import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { accountRoute, base, errorAlert, MESSAGES, sessionCookie, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "idp-redirect";

/**
 * Single sign-on: the app sends the browser to an identity provider on another host (idp.localhost),
 * which keeps its own session cookie and localStorage, then sends it back with a code the app swaps for
 * its session.
 */
function idpRedirect(accounts: Accounts): Router {
  const r = Router();
  const codes = new Map<string, string>();
  const port = (host: string | undefined) => (host ?? "").split(":")[1];
  r.get(`${base(NAME)}/login`, (req, res) => {
    const back = `http://${req.headers.host}${base(NAME)}/callback`;
    res.redirect(
      302,
      `http://idp.localhost:${port(req.headers.host)}${base(NAME)}/idp/authorize?redirect_uri=${encodeURIComponent(back)}`,
    );
  });
  const idpPage = (redirect: string, error?: string) =>
    page(
      "Example ID",
      `<h1>Example ID</h1><p>Sign in to continue to the app.</p>${errorAlert(error)}
<form method="post" action="${base(NAME)}/idp/authorize"><input type="hidden" name="redirect_uri" value="${escapeHtml(redirect)}">
<label>Email <input name="username" autocomplete="username"></label><label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Continue</button></form>`,
      `localStorage.setItem("idp_device", "known-device");`,
    );
  r.get(`${base(NAME)}/idp/authorize`, (req, res) => {
    res.type("html").send(idpPage(String(req.query.redirect_uri ?? "")));
  });
  r.post(`${base(NAME)}/idp/authorize`, urlencoded({ extended: false }), (req, res) => {
    const { username = "", password = "", redirect_uri: redirect = "" } = (req.body ?? {}) as Record<string, string>;
    if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(redirect)) return res.status(400).send("bad redirect_uri");
    if (!accounts.attempt(NAME, username, password)) return res.type("html").send(idpPage(redirect, MESSAGES.wrong));
    const code = randomBytes(16).toString("hex");
    codes.set(code, username);
    res.cookie("idp_session", accounts.openSession(username), {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: 86_400_000,
    });
    res.redirect(302, `${redirect}?code=${code}`);
  });
  r.get(`${base(NAME)}/callback`, (req, res) => {
    const username = codes.get(String(req.query.code));
    if (!username) return res.status(400).send("bad code");
    codes.delete(String(req.query.code));
    startSession(res, accounts, NAME, username);
    res.redirect(302, `${base(NAME)}/account`);
  });
  accountRoute(r, accounts, NAME);
  return r;
}

export const idpRedirectCase = defineCase({
  router: ({ accounts }) => idpRedirect(accounts),
  cases: [
    standard(NAME, {
      session: {
        cookie: sessionCookie(NAME),
        cookieDomain: "127.0.0.1",
        otherCookies: [{ name: "idp_session", domain: "idp.localhost" }],
        storageKey: "idp_device",
        storageHost: "idp.localhost",
      },
    }),
  ],
});
