import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "newsletter-beside";

/** A newsletter sign-up (email + Subscribe) right above the login form, both asking for an email. */
function newsletterBeside(accounts: Accounts): Router {
  return formCase(
    accounts,
    NAME,
    (error) =>
      page(
        "Members",
        `<aside><h2>Our newsletter</h2><form method="post" action="/cases/${NAME}/subscribe">
  <label>Your email <input name="email" type="email"></label><button type="submit">Subscribe</button></form></aside>
<main><h1>Member login</h1>${errorAlert(error)}
<form method="post"><label>Email <input name="member_email" type="email"></label>
<label>Password <input name="member_password" type="password"></label><button type="submit">Log in</button></form></main>`,
      ),
    { fields: { user: "member_email", pass: "member_password" } },
  );
}

export const newsletterBesideCase = defineCase({
  router: ({ accounts }) => newsletterBeside(accounts),
  cases: [standard(NAME)],
});
