import { randomBytes } from "node:crypto";
import { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "plain-text-lockout";

/**
 * Behind a load balancer that rotates its stickiness cookie on every response, a wrong password leads
 * to a page without a form that says in plain text (no alert markup) that the account is locked: new
 * cookies and no password field, yet no login.
 */
function plainTextLockout(accounts: Accounts): Router {
  const r = Router();
  r.use(base(NAME), (_req, res, next) => {
    res.cookie("AWSALB", randomBytes(12).toString("hex"), { path: "/", maxAge: 604_800_000 });
    next();
  });
  r.get(`${base(NAME)}/blocked`, (_req, res) => {
    res
      .type("html")
      .send(
        page(
          "Sign-in blocked",
          `<h1>Sign-in blocked</h1><p>Your account is temporarily locked. Try again in an hour.</p><a href="${base(NAME)}/login">Back</a>`,
        ),
      );
  });
  r.use(
    formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
      onRefusal: (_req, res) => res.redirect(302, `${base(NAME)}/blocked`),
    }),
  );
  return r;
}

export const plainTextLockoutCase = defineCase({
  router: ({ accounts }) => plainTextLockout(accounts),
  cases: [standard(NAME, { wrongPassword: "account_locked" })],
});
