import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "password-gate";

/**
 * "Enter the site password": one password field and no identifier (notebook servers, routers, staging
 * gates). The fixture finds the account by its password, so each test user still has a session of its own.
 */
function passwordGate(accounts: Accounts): Router {
  return formCase(
    accounts,
    NAME,
    (error) =>
      page(
        "Protected site",
        `<h1>This site is password protected</h1>${errorAlert(error)}
<form method="post" action="${base(NAME)}/login">
  <label>Site password <input name="password" type="password"></label>
  <button type="submit">Log in</button>
</form>`,
      ),
    {
      fields: { user: "user", pass: "password" },
      messages: { wrong: "Incorrect password.", locked: "Incorrect password." },
      identify: (body) => accounts.userWithPassword(body.password ?? "") ?? "",
    },
  );
}

// No identifier field: the site cannot tell whose wrong password it was, so no attempt is counted per user.
export const passwordGateCase = defineCase({
  router: ({ accounts }) => passwordGate(accounts),
  cases: [standard(NAME, { wrongPassword: undefined })],
});
