import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "password-toggle";

/**
 * A password field with a show/hide toggle, switched to "show" as the page loads (a setting the site
 * remembers): the field is of type text while we type, and still is when the site refuses the password.
 */
function passwordToggle(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) =>
    page(
      "Sign in",
      `<h1>Sign in</h1>${errorAlert(error)}
<form method="post"><label>Username <input name="username" autocomplete="username"></label>
<label>Password <input id="pw" name="password" type="password" autocomplete="current-password"></label>
<button type="button" id="toggle" aria-label="Show password">Show</button>
<button type="submit">Sign in</button></form>`,
      `const pw = document.getElementById("pw"), toggle = document.getElementById("toggle");
toggle.onclick = () => { const shown = pw.type === "text"; pw.type = shown ? "password" : "text"; toggle.textContent = shown ? "Show" : "Hide"; };
toggle.click();`,
    ),
  );
}

export const passwordToggleCase = defineCase({
  router: ({ accounts }) => passwordToggle(accounts),
  cases: [standard(NAME)],
});
