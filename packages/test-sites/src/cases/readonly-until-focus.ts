import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "readonly-until-focus";

/** Both fields are read-only until focused, a common trick against password managers' autofill. */
function readonlyUntilFocus(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) =>
    page(
      "Sign in",
      `<h1>Sign in</h1>${errorAlert(error)}<form method="post">
<label>Username <input name="username" readonly onfocus="this.removeAttribute('readonly')"></label>
<label>Password <input name="password" type="password" readonly onfocus="this.removeAttribute('readonly')"></label>
<button type="submit">Sign in</button></form>`,
    ),
  );
}

export const readonlyUntilFocusCase = defineCase({
  router: ({ accounts }) => readonlyUntilFocus(accounts),
  cases: [standard(NAME)],
});
