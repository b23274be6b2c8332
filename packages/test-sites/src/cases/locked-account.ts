import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";

/** A site that refuses a locked account, whatever the password, and says so on the form. */
export function lockedAccount(accounts: Accounts): Router {
  return formCase(accounts, "locked-account", (error) =>
    page("Sign in", `<h1>Sign in</h1>${plainForm("locked-account", error)}`),
  );
}
