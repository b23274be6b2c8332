import { Router, urlencoded } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, startSession } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, loginPage, REFUSALS, loginOffer } from "./kit";
import type { SignupRegistry } from "./registry";

/** A sign-up page whose point is its password rules; no confirmation, signed in at once. */
interface RuledSite {
  name: string;
  title: string;
  button: string;
  /** The password field as the site shows it, with its rules (markup or visible text). */
  passwordField: string;
  confirm: boolean;
  rule: string;
  accepts: (password: string) => boolean;
}

const RULES: RuledSite = {
  name: "signup-rules",
  title: "Create an account",
  button: "Register",
  passwordField: `<label>Password <input type="password" name="password" autocomplete="new-password" required minlength="12" maxlength="16"
    passwordrules="minlength: 12; maxlength: 16; required: lower; required: upper; required: digit; required: [!#$%];"></label>`,
  confirm: true,
  rule: "Password must be 12 to 16 characters of letters, digits and ! # $ %, with a lowercase letter, an uppercase letter, a digit and a symbol.",
  accepts: (password) =>
    /^[A-Za-z0-9!#$%]{12,16}$/.test(password) && [/[a-z]/, /[A-Z]/, /[0-9]/, /[!#$%]/].every((re) => re.test(password)),
};

const HINTS: RuledSite = {
  name: "signup-hints",
  title: "Create your account",
  button: "Create account",
  // The rules are only words beside the field; its maxlength is a limit the words never mention.
  passwordField: `<label>Password <input type="password" name="password" autocomplete="new-password" required maxlength="32" aria-describedby="pw-hint"></label>
  <p id="pw-hint">Your password must be at least 24 characters long and include an uppercase letter, a number and a special character.</p>`,
  confirm: false,
  rule: "Password must be at least 24 characters long and include an uppercase letter, a number and a special character.",
  accepts: (password) =>
    password.length >= 24 &&
    password.length <= 32 &&
    [/[A-Z]/, /[0-9]/, /[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/].every((re) => re.test(password)),
};

function ruledSignup(accounts: Accounts, registry: SignupRegistry, site: RuledSite): Router {
  const form = (values: Record<string, string>, error?: string) =>
    page(
      site.title,
      `<h1>${site.title}</h1>${errorAlert(error)}
<form method="post" action="${base(site.name)}/signup">
  <label>Email <input type="email" name="email" autocomplete="email" required${keep(values.email)}></label>
  ${site.passwordField}
  ${site.confirm ? `<label>Confirm password <input type="password" name="password_confirm" autocomplete="new-password" required></label>` : ""}
  <button type="submit">${site.button}</button>
</form>${loginOffer(site.name)}`,
    );
  const r = Router();
  r.get(`${base(site.name)}/signup`, (_req, res) => {
    res.type("html").send(form({}));
  });
  r.post(`${base(site.name)}/signup`, urlencoded({ extended: false }), (req, res) => {
    const body = fieldsOf(req);
    const [email, password] = [(body.email ?? "").trim(), body.password ?? ""];
    accounts.noteAttempt(site.name, email);
    const refusal = firstRefusal([
      [!email || !password || (site.confirm && !body.password_confirm), REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [!site.accepts(password), site.rule],
      [site.confirm && password !== body.password_confirm, REFUSALS.mismatch],
      [registry.emailTaken(site.name, email), REFUSALS.emailTaken],
    ]);
    if (refusal) return res.type("html").send(form(body, refusal));
    registry.create(site.name, { email }, password, true);
    startSession(res, accounts, site.name, email);
    res.redirect(302, `${base(site.name)}/account`);
  });
  r.use(loginPage(accounts, site.name));
  return r;
}

/** Password rules in the field's passwordrules, minlength and maxlength attributes. */
export const signupRules = (accounts: Accounts, registry: SignupRegistry) => ruledSignup(accounts, registry, RULES);

/** Password rules only as a sentence beside the field. */
export const signupHints = (accounts: Accounts, registry: SignupRegistry) => ruledSignup(accounts, registry, HINTS);
