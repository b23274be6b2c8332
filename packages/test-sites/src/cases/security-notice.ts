import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "security-notice";

/**
 * A signed-in page that greets the account with a security alert ("We noticed unusual sign-in activity"),
 * as many apps do after a login from a new place: the words of a risk wall, on a page that shows the account.
 */
function securityNotice(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
    accountScript: `document.body.insertAdjacentHTML("afterbegin", '<p role="alert">We noticed unusual sign-in activity on your account. Review your recent activity.</p>');`,
  });
}

export const securityNoticeCase = defineCase({
  router: ({ accounts }) => securityNotice(accounts),
  cases: [standard(NAME)],
});
