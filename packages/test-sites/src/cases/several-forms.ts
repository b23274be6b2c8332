import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "several-forms";

/**
 * A search form, a registration form (email, password, confirmation) and the login form on one page, none
 * with autocomplete hints: only the login form may be filled.
 */
function severalForms(accounts: Accounts): Router {
  return formCase(
    accounts,
    NAME,
    (error) =>
      page(
        "Forum",
        `<form action="${base(NAME)}/search"><input name="q" type="search" placeholder="Search the forum"><button>Search</button></form>
<div style="display:flex;gap:2rem">
<section><h2>New here? Register</h2>
<form method="post" action="${base(NAME)}/register">
  <label>Email <input name="reg_email" type="email"></label>
  <label>Choose a password <input name="reg_password" type="password"></label>
  <label>Repeat password <input name="reg_password2" type="password"></label>
  <button type="submit">Create account</button>
</form></section>
<section><h2>Members</h2>${errorAlert(error)}
<form method="post" action="${base(NAME)}/login">
  <label>Email <input name="email" type="email"></label>
  <label>Password <input name="pass" type="password"></label>
  <button type="submit">Log in</button>
</form></section></div>`,
      ),
    { fields: { user: "email", pass: "pass" } },
  );
}

export const severalFormsCase = defineCase({
  router: ({ accounts }) => severalForms(accounts),
  cases: [standard(NAME)],
});
