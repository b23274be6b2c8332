import { Router, urlencoded } from "express";
import { type Accounts, page } from "../accounts";
import { loginPage } from "./classic-form";

/**
 * A site that answers a wrong password by redirecting to a "too many attempts" page without any form,
 * setting a fresh flash cookie on the way (as Rails and Laravel do): no form and new cookies, yet no login.
 */
export function lockoutRedirect(accounts: Accounts): Router {
  const r = Router();
  r.get("/lockout/login", (_req, res) => {
    res.type("html").send(loginPage(undefined, "", "/lockout/login"));
  });
  r.post("/lockout/login", urlencoded({ extended: false }), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (accounts.attempt("lockout", username, password)) {
      res.cookie("classic_sid", accounts.openSession(username), { httpOnly: true, sameSite: "lax", path: "/" });
      res.redirect(302, "/classic/account");
      return;
    }
    res.cookie("flash", `blocked-${Date.now()}`, { path: "/", sameSite: "lax" });
    res.redirect(302, "/lockout/blocked");
  });
  r.get("/lockout/blocked", (_req, res) => {
    res
      .type("html")
      .send(
        page("Blocked", `<div class="error" role="alert">Too many failed attempts. Try again in 15 minutes.</div>`),
      );
  });
  return r;
}
