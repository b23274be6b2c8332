import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

/** A site that refuses a locked account, whatever the password, and says so on the form. */
function lockedAccount(accounts: Accounts): Router {
  return formCase(accounts, "locked-account", (error) =>
    page("Sign in", `<h1>Sign in</h1>${plainForm("locked-account", error)}`),
  );
}

export const lockedAccountCase = defineCase({
  router: ({ accounts }) => lockedAccount(accounts),
  cases: [
    standard("locked-account", {
      expect: "account_locked",
      session: undefined,
      wrongPassword: "account_locked",
      lockedUser: true,
    }),
  ],
});
