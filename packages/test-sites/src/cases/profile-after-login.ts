import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "profile-after-login";

/**
 * A signed-in page that shows a password field and notices of its own, as WordPress's profile page does
 * after a login: "Set New Password" (a new-password field), the sessions section's "You are only logged in
 * at this location." and its "Log Out Everywhere Else" button. It asks for no login: its words are no
 * refusal, its password field is no login form.
 */
function profileAfterLogin(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) => page("Log In", `<h1>Log In</h1>${plainForm(NAME, error)}`), {
    accountScript: `document.body.insertAdjacentHTML("beforeend", '<h2>Account Management</h2><table class="form-table"><tr><th><label for="pass1">New Password</label></th><td><input type="password" id="pass1" name="pass1" autocomplete="new-password" class="regular-text"><button type="button">Generate Password</button></td></tr><tr><th>Sessions</th><td><button type="button">Log Out Everywhere Else</button><div class="notice notice-info inline"><p class="description">You are only logged in at this location.</p></div></td></tr></table>');`,
  });
}

export const profileAfterLoginCase = defineCase({
  router: ({ accounts }) => profileAfterLogin(accounts),
  cases: [standard(NAME)],
});
