import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "additional-fields";

/** Besides username and password, a workspace (text, labelled) and an account (select) must be given. */
function additionalFields(accounts: Accounts): Router {
  return formCase(
    accounts,
    NAME,
    (error) =>
      page(
        "Sign in to your workspace",
        `<h1>Sign in</h1>${errorAlert(error)}
<form method="post">
  <label for="ws">Workspace</label> <input id="ws" name="tenant_slug" placeholder="your-team">
  <label>Email <input name="email" type="email" autocomplete="email"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  <label>Account <select name="acct"><option value="">Choose…</option><option value="p">Personal</option><option value="b">Billing</option></select></label>
  <button type="submit">Sign in</button>
</form>`,
      ),
    {
      fields: { user: "email", pass: "password" },
      verify: (body) =>
        body.tenant_slug !== "acme" ? "Unknown workspace." : body.acct !== "b" ? "Please choose an account." : null,
    },
  );
}

export const additionalFieldsCase = defineCase({
  router: ({ accounts }) => additionalFields(accounts),
  cases: [standard(NAME, { additionalFields: { workspace: "acme", account: "Billing" } })],
});
