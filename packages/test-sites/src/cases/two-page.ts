import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { accountRoute, base, errorAlert, MESSAGES, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "two-page";

/** Username on one page, password on the next (the username travels in a hidden field). */
function twoPage(accounts: Accounts): Router {
  const r = Router();
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(
      page(
        "Sign in",
        `<h1>Sign in</h1>
<form method="post" action="${base(NAME)}/password">
  <label>Email or username <input name="username" autocomplete="username"></label>
  <button type="submit">Next</button>
</form>`,
      ),
    );
  });
  const passwordPage = (username: string, error?: string) =>
    page(
      "Enter your password",
      `<h1>Enter your password</h1><p>Signing in as <b>${escapeHtml(username)}</b></p>
${errorAlert(error)}
<form method="post" action="${base(NAME)}/session">
  <input type="hidden" name="username" value="${escapeHtml(username)}">
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  <button type="submit">Sign in</button>
</form>`,
    );
  r.post(`${base(NAME)}/password`, urlencoded({ extended: false }), (req, res) => {
    res.type("html").send(passwordPage(String(req.body?.username ?? "")));
  });
  r.post(`${base(NAME)}/session`, urlencoded({ extended: false }), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt(NAME, username, password))
      return res.type("html").send(passwordPage(username, MESSAGES.wrong));
    startSession(res, accounts, NAME, username);
    res.redirect(302, `${base(NAME)}/account`);
  });
  accountRoute(r, accounts, NAME);
  return r;
}

export const twoPageCase = defineCase({
  router: ({ accounts }) => twoPage(accounts),
  cases: [standard(NAME)],
});
