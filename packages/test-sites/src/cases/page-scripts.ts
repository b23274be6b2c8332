import type { Router } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { base, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

/** What a CMS answers a form that came without one of its fields (WordPress's words). */
export const EMPTY_FIELD_REFUSAL = {
  password: "Error: The password field is empty.",
  username: "Error: The username field is empty.",
};

/**
 * Login pages whose own scripts change the fields while a person (or the engine) types, as many real pages
 * do: WordPress focuses and selects its username field a moment after the page loads (`setTimeout(... focus();
 * select() ..., 200)`), so keys sent at once land in the wrong field; anti-autofill scripts clear a password
 * that was filled right away. The fixtures make the moment deterministic: the script acts once, as the first key
 * reaches the password field. A form that comes without a field is refused in the site's
 * words ("The password field is empty."), and a wrong password as usual.
 */
function scriptedForm(accounts: Accounts, name: string, script: string): Router {
  return formCase(
    accounts,
    name,
    (error) =>
      page(
        "Log In",
        `<h1>Log In</h1>${error ? `<div id="login_error" class="notice notice-error"><strong>${escapeHtml(error)}</strong></div>` : ""}
<form name="loginform" id="loginform" method="post" action="${base(name)}/login">
  <p><label for="user_login">Username or Email Address</label><input type="text" name="log" id="user_login" autocomplete="username" size="20"></p>
  <p><label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass" autocomplete="current-password" size="20"></p>
  <p><input type="submit" name="wp-submit" id="wp-submit" value="Log In"></p>
</form>`,
        script,
      ),
    {
      fields: { user: "log", pass: "pwd" },
      verify: (body) => (!body.log ? EMPTY_FIELD_REFUSAL.username : !body.pwd ? EMPTY_FIELD_REFUSAL.password : null),
      messages: {
        wrong: "Error: The password you entered for that username is incorrect. Lost your password?",
        locked: "Error: Too many failed login attempts.",
      },
    },
  );
}

/** The page focuses and selects the username field as the password's first key comes: the keys go there. */
const focusThief = (accounts: Accounts) =>
  scriptedForm(
    accounts,
    "focus-thief",
    `let moved = false;
document.getElementById("user_pass").addEventListener("keydown", () => {
  if (moved) return;
  moved = true;
  const d = document.getElementById("user_login");
  d.focus();
  d.select();
});`,
  );

/** An anti-autofill script empties the password once, just after its first key: the keys after it stay, the first is lost. */
const clearsField = (accounts: Accounts) =>
  scriptedForm(
    accounts,
    "clears-field",
    `let cleared = false;
const pw = document.getElementById("user_pass");
pw.addEventListener("input", () => {
  if (cleared) return;
  cleared = true;
  setTimeout(() => { pw.value = ""; }, 0);
});`,
  );

/**
 * The page's own submit handler empties the password as the form goes out (a field the flow filled and
 * checked, lost where it cannot see: as a script that moves the value elsewhere before posting would): the
 * site answers "The password field is empty.", which is about the form, never a refusal of the password.
 */
const losesOnSubmit = (accounts: Accounts) =>
  scriptedForm(
    accounts,
    "loses-on-submit",
    `document.getElementById("loginform").addEventListener("submit", () => { document.getElementById("user_pass").value = ""; });`,
  );

// Page scripts that move the focus or empty a field while the keys go out: every field is checked, and typed again.
export const pageScriptCases = defineCase({
  router: ({ accounts }) => [focusThief(accounts), clearsField(accounts), losesOnSubmit(accounts)],
  cases: ["focus-thief", "clears-field"].map((name) =>
    standard(name, { refusal: "The password you entered for that username is incorrect." }),
  ),
});
