import { Router, urlencoded } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, formCase, plainForm, startSession } from "../cases/kit";
import { fieldsOf, firstRefusal, keep, loginOffer, REFUSALS, tooShort } from "./kit";
import type { SignupRegistry } from "./registry";

const NAME = "signup-username";
const MIN_PASSWORD = 8;

/** No email at all: a name field called just "name", a username the account signs in with, the password twice. */
export function signupUsername(accounts: Accounts, registry: SignupRegistry): Router {
  const form = (values: Record<string, string>, error?: string) =>
    page(
      "Join",
      `<h1>Join the forum</h1>${errorAlert(error)}
<form method="post" action="${base(NAME)}/signup">
  <label>Name <input name="name" required${keep(values.name)}></label>
  <label>Username <input name="login" required${keep(values.login)}></label>
  <label>Password <input type="password" name="password" autocomplete="new-password" required></label>
  <label>Confirm password <input type="password" name="password2" autocomplete="new-password" required></label>
  <button type="submit">Sign up</button>
</form>${loginOffer(NAME)}`,
    );
  const r = formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`));
  r.get(`${base(NAME)}/signup`, (_req, res) => {
    res.type("html").send(form({}));
  });
  r.post(`${base(NAME)}/signup`, urlencoded({ extended: false }), (req, res) => {
    const body = fieldsOf(req);
    const [name, login, password] = [(body.name ?? "").trim(), (body.login ?? "").trim(), body.password ?? ""];
    accounts.noteAttempt(NAME, login);
    const refusal = firstRefusal([
      [!name || !login || !password, REFUSALS.missing],
      [password.length < MIN_PASSWORD, tooShort(MIN_PASSWORD)],
      [password !== body.password2, REFUSALS.mismatch],
      [registry.usernameTaken(login), REFUSALS.usernameTaken],
    ]);
    if (refusal) return res.type("html").send(form(body, refusal));
    registry.create(NAME, { username: login, name }, password, true);
    startSession(res, accounts, NAME, login);
    res.redirect(302, `${base(NAME)}/account`);
  });
  return r;
}
