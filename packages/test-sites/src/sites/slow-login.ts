import { Router, urlencoded } from "express";
import type { Accounts } from "../accounts";
import { loginPage } from "./classic-form";

/** The classic form, but the server takes `?delayMs` (default 3 s) to answer the login POST. */
export function slowLogin(accounts: Accounts): Router {
  const r = Router();
  r.get("/slow/login", (req, res) => {
    res.type("html").send(loginPage(undefined, "", `/slow/login?delayMs=${Number(req.query.delayMs ?? 3000)}`));
  });
  r.post("/slow/login", urlencoded({ extended: false }), async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number(req.query.delayMs ?? 3000), 30_000)));
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt("slow", username, password)) {
      res.type("html").send(loginPage("Invalid username or password.", username));
      return;
    }
    res.cookie("classic_sid", accounts.openSession(username), { httpOnly: true, sameSite: "lax", path: "/" });
    res.redirect(302, "/classic/account");
  });
  return r;
}
