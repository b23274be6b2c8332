import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import type { Outbox } from "../outbox";
import { base, errorAlert, formCase } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, origin, REFUSALS, sendMail } from "./kit";
import type { SignupRegistry } from "./registry";

const NAME = "signup-mailed-password";

const passwordMail = (to: string, username: string, password: string, login: string) => ({
  to,
  subject: "Account details on Acme Wiki",
  text: `Someone created an account for your email address on Acme Wiki named "${username}", with password "${password}".\nYou should log in and change your password now: ${login}\n\nYou may ignore this message if this account was created in error.`,
  html: "",
});

/**
 * Sign-up that mails a generated password, as MediaWiki's "create account by email" and classic forums
 * do: username and email only, "A temporary password has been sent to …", then log in with it.
 */
export function signupMailedPassword(accounts: Accounts, outbox: Outbox, registry: SignupRegistry): Router {
  const r = Router();
  const form = (values: Record<string, string>, error?: string) =>
    page("Create account", `<h1>Create account</h1>${errorAlert(error)}
<form method="post" action="${base(NAME)}/signup">
  <label>Username <input name="wpName" autocomplete="username"${keep(values.wpName)}></label>
  <label>Email address <input type="email" name="wpEmail"${keep(values.wpEmail)}></label>
  <p>A temporary password will be sent to the email address.</p>
  <button type="submit">Create your account</button>
</form>
<p>Already have an account? <a href="${base(NAME)}/login">Log in</a></p>`);
  r.get(`${base(NAME)}/signup`, (_req, res) => {
    res.type("html").send(form({}));
  });
  r.post(`${base(NAME)}/signup`, urlencoded({ extended: false }), async (req, res) => {
    const body = fieldsOf(req);
    const [username, email] = [(body.wpName ?? "").trim(), (body.wpEmail ?? "").trim()];
    accounts.noteAttempt(NAME, email);
    const refusal = firstRefusal([
      [!username || !email, REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [registry.usernameTaken(username), REFUSALS.usernameTaken],
      [registry.emailTaken(NAME, email), REFUSALS.emailTaken],
    ]);
    if (refusal) return res.type("html").send(form(body, refusal));
    const password = randomBytes(6).toString("base64url").replace(/[-_]/g, "x") + "7Q";
    registry.create(NAME, { email, username }, password, true);
    await sendMail(accounts, outbox, passwordMail(email, username, password, `${origin(req)}${base(NAME)}/login`));
    res.type("html").send(page("Account created", `<h1>Account created</h1>
<p>The account ${escapeHtml(username)} has been created. A temporary password has been sent to ${escapeHtml(email)}.</p>
<p><a href="${base(NAME)}/login">Log in</a></p>`));
  });
  r.use(
    formCase(accounts, NAME, (error) =>
      page("Log in", `<h1>Log in</h1>${errorAlert(error)}
<form method="post" action="${base(NAME)}/login">
  <label>Username <input name="wpName" autocomplete="username"></label>
  <label>Password <input type="password" name="wpPassword" autocomplete="current-password"></label>
  <button type="submit">Log in</button>
</form>`), { fields: { user: "wpName", pass: "wpPassword" } }),
  );
  return r;
}
