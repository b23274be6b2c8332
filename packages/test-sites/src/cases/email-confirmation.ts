import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";
import { defineCase, mfaRequired } from "./login-case";

const NAME = "email-confirmation";

/** After the right password, the site sets a cookie and asks to confirm the sign-in from an email. */
function emailConfirmation(accounts: Accounts): Router {
  const r = formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
    onSuccess: (_req, res) => {
      res.cookie("pending_device", "1", { httpOnly: true, path: "/" }).redirect(302, `${base(NAME)}/confirm`);
    },
  });
  r.get(`${base(NAME)}/confirm`, (_req, res) => {
    res
      .type("html")
      .send(
        page(
          "Confirm it's you",
          `<h1>Confirm it's you</h1><p>We sent you an email. Check your inbox and follow the link to confirm this sign-in.</p>`,
        ),
      );
  });
  return r;
}

export const emailConfirmationCase = defineCase({
  router: ({ accounts }) => emailConfirmation(accounts),
  cases: [mfaRequired(NAME)],
});
