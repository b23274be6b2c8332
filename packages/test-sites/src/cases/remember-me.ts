import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, plainForm, startSession, formCase } from "./kit";

const NAME = "remember-me";

/** A "Remember me" box: ticked, the session cookie lasts 30 days; unticked, it ends with the browser. */
export function rememberMe(accounts: Accounts): Router {
  return formCase(
    accounts,
    NAME,
    (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error, '<label><input type="checkbox" name="remember" value="1"> Remember me</label>')}`),
    {
      onSuccess: (req, res, username) => {
        startSession(res, accounts, NAME, username, req.body?.remember === "1" ? 30 * 86_400_000 : 0);
        res.redirect(302, `${base(NAME)}/account`);
      },
    },
  );
}
