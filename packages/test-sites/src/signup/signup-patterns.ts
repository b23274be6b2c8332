import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import type { Outbox } from "../outbox";
import { base, formCase } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, origin, REFUSALS, sendMail, tooShort } from "./kit";
import type { SignupRecord, SignupRegistry } from "./registry";

/** What a project tracker answers a registration without its login name (Redmine's words). */
export const LOGIN_BLANK = "Login cannot be blank";
/** What a project tracker that activates accounts by email says after a registration (Redmine's words). */
export const ACTIVATION_SENT = (email: string) =>
  `Account was successfully created. An email containing the instructions to activate your account was sent to ${email}.`;
/** What it answers the right password of an account not yet activated. */
export const NOT_ACTIVATED_YET =
  "You haven't activated your account yet. If you want to receive a new activation email, please click this link.";
/** What a notebook hub answers a signup it took, above its signup form drawn again. */
export const SIGNUP_TOOK = "The signup was successful! You can now go to the home page and log in to the system.";

/**
 * A project tracker's registration (Redmine's shape): a required "Login" field that no `required` attribute
 * marks (a star in its label), password and confirmation, first and last name, email. A login name is the
 * account's: the new account signs in with it on the site's login page, not with its email. Registered at
 * once ("Your account has been activated. You can now log in.").
 *
 * With `outbox` (`signup-tracker-mail`), as such a tracker set to activate accounts by email: the registration
 * says it mailed the activation instructions above the login form, the login page takes the login name only
 * ("Invalid user or password" for the email), and the right password of an account not yet activated is
 * answered "You haven't activated your account yet" until the mailed link is opened. `quiet`
 * (`signup-tracker-quiet`): the registration leads to the login page without a word of the mail.
 */
export function signupTracker(accounts: Accounts, registry: SignupRegistry, outbox?: Outbox, quiet = false): Router {
  const name = !outbox ? "signup-tracker" : quiet ? "signup-tracker-quiet" : "signup-tracker-mail";
  const pending = new Map<string, SignupRecord>();
  const r = Router();
  const form = (error?: string, v: Record<string, string> = {}) =>
    page(
      "Register",
      `<h2>Register</h2>${error ? `<div id="errorExplanation"><ul><li>${escapeHtml(error)}</li></ul></div>` : ""}
<form action="${base(name)}/account/register" method="post" id="new_user"><div class="box tabular">
<p><label for="user_login">Login <span class="required">*</span></label><input size="25" type="text" name="user[login]" id="user_login"${keep(v["user[login]"])}></p>
<p><label for="user_password">Password <span class="required">*</span></label><input size="25" type="password" name="user[password]" id="user_password"><em class="info">Must be at least 8 characters long.</em></p>
<p><label for="user_password_confirmation">Confirmation <span class="required">*</span></label><input size="25" type="password" name="user[password_confirmation]" id="user_password_confirmation"></p>
<p><label for="user_firstname">First name <span class="required">*</span></label><input size="30" type="text" name="user[firstname]" id="user_firstname"${keep(v["user[firstname]"])}></p>
<p><label for="user_lastname">Last name <span class="required">*</span></label><input size="30" type="text" name="user[lastname]" id="user_lastname"${keep(v["user[lastname]"])}></p>
<p><label for="user_mail">Email <span class="required">*</span></label><input size="30" type="text" name="user[mail]" id="user_mail"${keep(v["user[mail]"])}></p>
</div><input type="submit" name="commit" value="Submit"></form>`,
    );
  r.get(`${base(name)}/account/register`, (_req, res) => res.type("html").send(form()));
  r.post(`${base(name)}/account/register`, urlencoded({ extended: false }), async (req, res) => {
    const v = fieldsOf(req);
    const [login, password, mail] = [
      (v["user[login]"] ?? "").trim(),
      v["user[password]"] ?? "",
      (v["user[mail]"] ?? "").trim(),
    ];
    accounts.noteAttempt(name, mail);
    const refused = firstRefusal([
      [!login, LOGIN_BLANK],
      [!/^[a-z0-9_\-@.]{1,60}$/i.test(login), "Login is invalid"],
      [!v["user[firstname]"]?.trim(), "First name cannot be blank"],
      [!v["user[lastname]"]?.trim(), "Last name cannot be blank"],
      [!isEmail(mail), "Email is invalid"],
      [password.length < 8, tooShort(8)],
      [password !== v["user[password_confirmation]"], "Password doesn't match confirmation"],
      [registry.usernameTaken(login), "Login has already been taken"],
      [registry.emailTaken(name, mail), "Email has already been taken"],
    ]);
    if (refused) return res.type("html").send(form(refused, v));
    const record = registry.create(
      name,
      { email: mail, username: login, name: `${v["user[firstname]"]} ${v["user[lastname]"]}` },
      password,
      !outbox,
    );
    if (!outbox) return res.redirect(302, `${base(name)}/login?activated=1`);
    const token = randomBytes(20).toString("hex");
    pending.set(token, record);
    const link = `${origin(req)}${base(name)}/account/activate?token=${token}`;
    await sendMail(accounts, outbox, {
      to: mail,
      subject: "[Tracker] Your Redmine account activation",
      text: `Your account information:\n* Login: ${login}\n\nTo activate your account, click on the following link:\n${link}\n\nYou have received this notification because you registered.`,
      html: `<p>Your account information:</p><ul><li>Login: ${escapeHtml(login)}</li></ul><p>To activate your account, click on the following link:</p><p><a href="${link}">${link}</a></p>`,
    });
    res.redirect(302, quiet ? `${base(name)}/login` : `${base(name)}/login?registered=${encodeURIComponent(mail)}`);
  });
  r.get(`${base(name)}/account/activate`, (req, res) => {
    const record = pending.get(String(req.query.token ?? ""));
    if (!record)
      return res
        .status(404)
        .type("html")
        .send(page("404", "<h2>404</h2><p>The page you were trying to access doesn't exist or has been removed.</p>"));
    pending.delete(String(req.query.token));
    registry.confirm(record);
    res.redirect(302, `${base(name)}/login?activated=1`);
  });
  // The login page takes the login name (and, as trackers do, the email too).
  r.use(
    formCase(
      accounts,
      name,
      (error, req) =>
        page(
          "Sign in",
          `${req?.query.activated ? '<div class="flash notice">Your account has been activated. You can now log in.</div>' : ""}${req?.query.registered ? `<div class="flash notice">${escapeHtml(ACTIVATION_SENT(String(req.query.registered)))}</div>` : ""}${error ? `<div class="flash error">${escapeHtml(error)}</div>` : ""}
<form method="post" action="${base(name)}/login"><label>Login <input name="username" id="username"></label><label>Password <input type="password" name="password" id="password"></label><input type="submit" value="Login"></form>`,
        ),
      outbox
        ? {
            messages: { wrong: "Invalid user or password", locked: "Your account was locked." },
            // The login name only: an email is no login here, and an account not yet activated is told so.
            gate: (body) => {
              const login = (body.username ?? "").trim();
              if (login.includes("@")) return "Invalid user or password";
              const waiting = registry
                .find(login)
                .some(
                  (r) => r.site === name && r.username === login && registry.pendingPasswordIs(r, body.password ?? ""),
                );
              return waiting ? NOT_ACTIVATED_YET : null;
            },
          }
        : {},
    ),
  );
  return r;
}

/**
 * A notebook hub's signup (its shape): username, password and confirmation; a signup it took is answered with
 * its words of success above the same signup form drawn again, and the new account signs in on the hub's
 * login page (linked from the signup page).
 */
export function signupHub(accounts: Accounts, registry: SignupRegistry): Router {
  const name = "signup-hub";
  const r = Router();
  const form = (notice?: { ok: boolean; text: string }) =>
    page(
      "Sign up",
      `<h2>Sign up</h2>${notice ? `<div class="alert ${notice.ok ? "alert-success" : "alert-danger"}" role="alert">${escapeHtml(notice.text)}</div>` : ""}
<form action="${base(name)}/signup" method="post">
<label for="username_input">Username:</label><input id="username_input" type="text" name="username" autocapitalize="off" autocorrect="off">
<label for="password_input">Password:</label><input id="password_input" type="password" name="signup_password">
<label for="password_confirmation_input">Confirm password:</label><input id="password_confirmation_input" type="password" name="signup_password_confirmation">
<input type="submit" value="Create User" class="btn"></form><p>Already have an account? <a href="${base(name)}/login">Login!</a></p>`,
    );
  r.get(`${base(name)}/signup`, (_req, res) => res.type("html").send(form()));
  r.post(`${base(name)}/signup`, urlencoded({ extended: false }), (req, res) => {
    const v = fieldsOf(req);
    const username = (v.username ?? "").trim();
    accounts.noteAttempt(name, username);
    const refused = firstRefusal([
      [!username || !v.signup_password, REFUSALS.missing],
      [(v.signup_password ?? "").length < 7, "Password should have at least 7 characters."],
      [
        v.signup_password !== v.signup_password_confirmation,
        "Your password did not match the confirmation. Please try again.",
      ],
      [registry.usernameTaken(username), "User already exists"],
    ]);
    if (refused) return res.type("html").send(form({ ok: false, text: refused }));
    registry.create(name, { username }, v.signup_password!, true);
    res.type("html").send(form({ ok: true, text: SIGNUP_TOOK }));
  });
  r.use(
    formCase(accounts, name, (error) =>
      page(
        "Login",
        `<h2>Sign in</h2>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}<form method="post" action="${base(name)}/login"><label>Username: <input name="username"></label><label>Password: <input type="password" name="password"></label><input type="submit" value="Sign in"></form>`,
      ),
    ),
  );
  return r;
}
