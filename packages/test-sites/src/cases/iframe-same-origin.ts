import { Router, urlencoded } from "express";
import { type Accounts, page } from "../accounts";
import { accountRoute, base, errorAlert, MESSAGES, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "iframe-same-origin";

/** The login form lives in a same-origin iframe; on success the frame sends the whole page on. */
function iframeSameOrigin(accounts: Accounts): Router {
  const r = Router();
  const frame = (error?: string) =>
    page(
      "Login frame",
      `${errorAlert(error)}
<form method="post" action="${base(NAME)}/frame">
  <label>Username <input name="username"></label>
  <label>Password <input name="password" type="password"></label>
  <button type="submit">Log in</button>
</form>`,
    );
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(
      page(
        "Portal",
        `<h1>Customer portal</h1><p>Please log in below.</p>
<iframe src="${base(NAME)}/frame" title="Login" style="width:26rem;height:16rem;border:1px solid #ccc"></iframe>`,
      ),
    );
  });
  r.get(`${base(NAME)}/frame`, (_req, res) => {
    res.type("html").send(frame());
  });
  r.post(`${base(NAME)}/frame`, urlencoded({ extended: false }), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt(NAME, username, password)) return res.type("html").send(frame(MESSAGES.wrong));
    startSession(res, accounts, NAME, username);
    res.type("html").send(page("Signed in", "<p>Signed in…</p>", `top.location.href = "${base(NAME)}/account";`));
  });
  accountRoute(r, accounts, NAME);
  return r;
}

export const iframeSameOriginCase = defineCase({
  router: ({ accounts }) => iframeSameOrigin(accounts),
  cases: [standard(NAME)],
});
