import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm, sessionCookie, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "remember-me";

// A box drawn by CSS: the native checkbox is visually hidden, its label is what people see and click.
const STYLED_BOX = `<style>.visually-hidden{position:absolute;width:1px;height:1px;opacity:0;overflow:hidden}
.box{display:inline-block;width:1rem;height:1rem;border:1px solid #555;vertical-align:middle}
input:checked+label .box{background:#06c}</style>
<input type="checkbox" id="keep" name="remember" value="1" class="visually-hidden"><label for="keep"><span class="box"></span> Remember me</label>`;

/** A "Remember me" box: ticked, the session cookie lasts 30 days; unticked, it ends with the browser. */
function rememberMe(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error, STYLED_BOX)}`), {
    onSuccess: (req, res, username) => {
      startSession(res, accounts, NAME, username, req.body?.remember === "1" ? 30 * 86_400_000 : 0);
      res.redirect(302, `${base(NAME)}/account`);
    },
  });
}

export const rememberMeCase = defineCase({
  router: ({ accounts }) => rememberMe(accounts),
  cases: [standard(NAME, { session: { cookie: sessionCookie(NAME), cookieDomain: "127.0.0.1", persistentDays: 29 } })],
});
