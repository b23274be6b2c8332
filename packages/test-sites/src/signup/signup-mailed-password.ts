import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import type { Outbox } from "../outbox";
import { base, errorAlert, formCase, startSession } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, origin, REFUSALS, sendMail } from "./kit";
import type { SignupRecord, SignupRegistry } from "./registry";

const MIN_PASSWORD = 8;

// As a wiki sends the account's details: multipart/alternative, base64 text and HTML parts, the login name
// as the site assigned it and the generated password (punctuation inside) on lines of their own.
const wikiMail = (to: string, username: string, password: string, login: string) => ({
  to,
  subject: "Account details on Acme Wiki",
  text: `Someone created an account for your email address on Acme Wiki.\n\nLogin    : ${username}\nPassword : ${password}\n\nYou should log in and change your password now: ${login}`,
  html: `<p>Someone created an account for your email address on Acme Wiki.</p><pre>Login    : ${escapeHtml(username)}\nPassword : ${escapeHtml(password)}</pre><p><a href="${login}">Log in</a></p>`,
  textEncoding: "base64" as const,
});

const passwordMail = (to: string, username: string, password: string, login: string) => ({
  to,
  subject: "Account details on Acme Wiki",
  text: `Someone created an account for your email address on Acme Wiki named "${username}", with password "${password}".\nYou should log in and change your password now: ${login}\n\nYou may ignore this message if this account was created in error.`,
  html: "",
});

/**
 * Sign-up that mails a generated password, as MediaWiki's "create account by email" and classic forums
 * do: username and email only, "A temporary password has been sent to …", then log in with it; that
 * first login asks for a new password before it signs the account in. `wiki`: as MediaWiki itself, the
 * site capitalizes the username, logs in by that username only (not the email), and mails the login and
 * password as a base64 multipart message.
 */
export function signupMailedPassword(
  accounts: Accounts,
  outbox: Outbox,
  registry: SignupRegistry,
  site = "signup-mailed-password",
  wiki = false,
): Router {
  const r = Router();
  // Accounts still on their temporary password, by the name they log in with; and open password changes.
  const temporary = new Map<string, SignupRecord>();
  const changes = new Map<string, { record: SignupRecord; login: string }>();
  const changeForm = (ticket: string, error?: string) =>
    page(
      "Change password",
      `<h1>Reset password</h1><p>You must set a new password to finish logging in.</p>${errorAlert(error)}
<form method="post" action="${base(site)}/changepass">
  <input type="hidden" name="ticket" value="${ticket}">
  <label>New password <input type="password" name="wpNewPassword" autocomplete="new-password"></label>
  <label>Confirm password <input type="password" name="wpRetype" autocomplete="new-password"></label>
  <button type="submit">Change password</button>
</form>`,
    );
  const form = (values: Record<string, string>, error?: string) =>
    page(
      "Create account",
      `<h1>Create account</h1>${errorAlert(error)}
<form method="post" action="${base(site)}/signup">
  <label>Username <input name="wpName" autocomplete="username"${keep(values.wpName)}></label>
  <label>Email address <input type="email" name="wpEmail"${keep(values.wpEmail)}></label>
  <p>A temporary password will be sent to the email address.</p>
  <button type="submit">Create your account</button>
</form>
<p>Already have an account? <a href="${base(site)}/login">Log in</a></p>`,
    );
  r.get(`${base(site)}/signup`, (_req, res) => {
    res.type("html").send(form({}));
  });
  r.post(`${base(site)}/signup`, urlencoded({ extended: false }), async (req, res) => {
    const body = fieldsOf(req);
    const [username, email] = [(body.wpName ?? "").trim(), (body.wpEmail ?? "").trim()];
    accounts.noteAttempt(site, email);
    const refusal = firstRefusal([
      [!username || !email, REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [registry.usernameTaken(username), REFUSALS.usernameTaken],
      [registry.emailTaken(site, email), REFUSALS.emailTaken],
    ]);
    if (refusal) return res.type("html").send(form(body, refusal));
    const assigned = wiki ? username[0]!.toUpperCase() + username.slice(1) : username;
    const password = wiki
      ? `${randomBytes(4).toString("hex")}#78`
      : randomBytes(6).toString("base64url").replace(/[-_]/g, "x") + "7Q";
    const record = registry.create(site, { email, username: assigned }, password, true);
    if (!wiki) temporary.set(email.toLowerCase(), record);
    temporary.set(wiki ? assigned : assigned.toLowerCase(), record);
    await sendMail(
      accounts,
      outbox,
      (wiki ? wikiMail : passwordMail)(email, assigned, password, `${origin(req)}${base(site)}/login`),
    );
    res.type("html").send(
      page(
        "Account created",
        `<h1>Account created</h1>
<p>The account ${escapeHtml(username)} has been created. A temporary password has been sent to ${escapeHtml(email)}.</p>
<p><a href="${base(site)}/login">Log in</a></p>`,
      ),
    );
  });
  r.use(
    formCase(
      accounts,
      site,
      (error) =>
        page(
          "Log in",
          `<h1>Log in</h1>${errorAlert(error)}
<form method="post" action="${base(site)}/login">
  <label>Username <input name="wpName" autocomplete="username"></label>
  <label>Password <input type="password" name="wpPassword" autocomplete="current-password"></label>
  <button type="submit">Log in</button>
</form>`,
        ),
      {
        fields: { user: "wpName", pass: "wpPassword" },
        // A wiki logs in by its username, as it spelled it; an email address is no username there.
        verify: (body) =>
          wiki && (body.wpName ?? "").includes("@")
            ? "Incorrect username or password entered. Please try again."
            : null,
        onSuccess: (_req, res, login) => {
          const record = temporary.get(wiki ? login : login.toLowerCase());
          if (!record) {
            startSession(res, accounts, site, login);
            return res.redirect(302, `${base(site)}/account`);
          }
          const ticket = randomBytes(12).toString("hex");
          changes.set(ticket, { record, login });
          res.type("html").send(changeForm(ticket));
        },
      },
    ),
  );
  r.post(`${base(site)}/changepass`, urlencoded({ extended: false }), (req, res) => {
    const body = fieldsOf(req);
    const change = changes.get(body.ticket ?? "");
    if (!change) return res.redirect(302, `${base(site)}/login`);
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
      temporary.delete(wiki ? name : name.toLowerCase());
    }
    startSession(res, accounts, site, login);
    res.redirect(302, `${base(site)}/account`);
  });
  return r;
}
