import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import type { Outbox } from "../outbox";
import { base, errorAlert, formCase, startSession } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, origin, REFUSALS, sendMail } from "./kit";
import type { SignupRecord, SignupRegistry } from "./registry";

const NAME = "signup-mailed-password";
const MIN_PASSWORD = 8;

const passwordMail = (to: string, username: string, password: string, login: string) => ({
  to,
  subject: "Account details on Acme Wiki",
  text: `Someone created an account for your email address on Acme Wiki named "${username}", with password "${password}".\nYou should log in and change your password now: ${login}\n\nYou may ignore this message if this account was created in error.`,
  html: "",
});

/**
 * Sign-up that mails a generated password, as MediaWiki's "create account by email" and classic forums
 * do: username and email only, "A temporary password has been sent to …", then log in with it; that
 * first login asks for a new password before it signs the account in.
 */
export function signupMailedPassword(accounts: Accounts, outbox: Outbox, registry: SignupRegistry): Router {
  const r = Router();
  // Accounts still on their temporary password, by the name they log in with; and open password changes.
  const temporary = new Map<string, SignupRecord>();
  const changes = new Map<string, { record: SignupRecord; login: string }>();
  const changeForm = (ticket: string, error?: string) =>
    page("Change password", `<h1>Reset password</h1><p>You must set a new password to finish logging in.</p>${errorAlert(error)}
<form method="post" action="${base(NAME)}/changepass">
  <input type="hidden" name="ticket" value="${ticket}">
  <label>New password <input type="password" name="wpNewPassword" autocomplete="new-password"></label>
  <label>Confirm password <input type="password" name="wpRetype" autocomplete="new-password"></label>
  <button type="submit">Change password</button>
</form>`);
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
    const record = registry.create(NAME, { email, username }, password, true);
    temporary.set(email.toLowerCase(), record);
    temporary.set(username.toLowerCase(), record);
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
</form>`), {
      fields: { user: "wpName", pass: "wpPassword" },
      onSuccess: (_req, res, login) => {
        const record = temporary.get(login.toLowerCase());
        if (!record) {
          startSession(res, accounts, NAME, login);
          return res.redirect(302, `${base(NAME)}/account`);
        }
        const ticket = randomBytes(12).toString("hex");
        changes.set(ticket, { record, login });
        res.type("html").send(changeForm(ticket));
      },
    }),
  );
  r.post(`${base(NAME)}/changepass`, urlencoded({ extended: false }), (req, res) => {
    const body = fieldsOf(req);
    const change = changes.get(body.ticket ?? "");
    if (!change) return res.redirect(302, `${base(NAME)}/login`);
    const password = body.wpNewPassword ?? "";
    const refusal = firstRefusal([
      [password.length < MIN_PASSWORD, `Passwords must be at least ${MIN_PASSWORD} characters.`],
      [password !== body.wpRetype, REFUSALS.mismatch],
    ]);
    if (refusal) return res.type("html").send(changeForm(body.ticket!, refusal));
    changes.delete(body.ticket!);
    const { record, login } = change;
    for (const name of [record.email, record.username]) {
      if (!name) continue;
      accounts.addUser(name, password);
      temporary.delete(name.toLowerCase());
    }
    startSession(res, accounts, NAME, login);
    res.redirect(302, `${base(NAME)}/account`);
  });
  return r;
}
