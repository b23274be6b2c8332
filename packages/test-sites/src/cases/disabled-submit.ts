import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "disabled-submit";

/** The button stays disabled until the site's own validation, run 400 ms after the last keystroke, passes. */
function disabledSubmit(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) =>
    page(
      "Sign in",
      `<h1>Sign in</h1>${errorAlert(error)}<form id="f" method="post">
<label>Username <input name="username" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button id="go" type="submit" disabled>Sign in</button></form>`,
      `const f = document.getElementById("f"); let timer;
f.addEventListener("input", () => {
  document.getElementById("go").disabled = true;
  clearTimeout(timer);
  timer = setTimeout(() => { document.getElementById("go").disabled = !(f.username.value && f.password.value); }, 400);
});`,
    ),
  );
}

export const disabledSubmitCase = defineCase({
  router: ({ accounts }) => disabledSubmit(accounts),
  cases: [standard(NAME)],
});
