import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "honeypot";

/**
 * A bot trap: an off-screen field named "username" that people never see. The real field is "login_id",
 * labelled "Email address". A filled trap fails the login with a vague message.
 */
function honeypot(accounts: Accounts): Router {
  return formCase(
    accounts,
    NAME,
    (error) =>
      page(
        "Sign in",
        `<h1>Sign in</h1>${errorAlert(error)}
<form method="post">
  <div style="position:absolute;left:-10000px;top:auto" aria-hidden="true"><label>Username <input name="username" tabindex="-1" autocomplete="off"></label></div>
  <label>Email address <input name="login_id" type="text"></label>
  <label>Password <input name="pwd" type="password"></label>
  <button type="submit">Sign in</button>
</form>`,
      ),
    {
      fields: { user: "login_id", pass: "pwd" },
      verify: (body) => (body.username ? "Something went wrong. Please try again." : null),
    },
  );
}

export const honeypotCase = defineCase({
  router: ({ accounts }) => honeypot(accounts),
  cases: [standard(NAME)],
});
