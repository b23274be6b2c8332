import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, page } from "../accounts";
import type { Outbox } from "../outbox";
import { base, errorAlert, formCase } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, origin, REFUSALS, sendMail } from "./kit";
import type { SignupRecord, SignupRegistry } from "./registry";

export const SET_PASSWORD_REFUSALS = {
  link: "Your password reset link appears to be invalid. Please request a new link below.",
  rules: "Your password must be at least 10 characters long and contain a number.",
};
// Like WordPress, the registration sends its mail before it answers: the POST takes a while.
const MAIL_DELAY_MS = 800;
const MIN_PASSWORD = 10;
const REDIRECT_DELAY_MS = 500;

const setPasswordMail = (to: string, username: string, link: string, login: string) => ({
  to,
  subject: "[Acme Blog] Login Details",
  text: `Username: ${username}\r\n\r\nTo set your password, visit the following address:\r\n\r\n${link}\r\n\r\n${login}\r\n`,
  html: "",
});

/**
 * Sign-up that creates the account without a password and mails a link to set one, as WordPress does
 * (username and email only; "Registration complete. Please check your email"; a new-password page the
 * site pre-fills with a strong password). `prefill: false` is the invitation-style page instead: an
 * empty "New password" and "Confirm password" with stated rules, on a site that re-issues a visitor
 * cookie with every response as Laravel apps do (new cookies alone never mean signed in).
 */
export function signupSetPassword(
  accounts: Accounts,
  outbox: Outbox,
  registry: SignupRegistry,
  name: string,
  prefill: boolean,
): Router {
  const keys = new Map<string, SignupRecord>();
  const r = Router();
  if (!prefill) {
    r.use(base(name), (_req, res, next) => {
      res.cookie("visitor_session", randomBytes(12).toString("hex"), { path: "/", httpOnly: true, sameSite: "lax" });
      next();
    });
  }
  const registerForm = (values: Record<string, string>, error?: string) =>
    page(
      "Registration Form",
      `<h1>Register For This Site</h1>${errorAlert(error)}
<form method="post" action="${base(name)}/signup">
  <label>Username <input name="user_login" autocapitalize="off"${keep(values.user_login)}></label>
  <label>Email <input type="email" name="user_email"${keep(values.user_email)}></label>
  <p>Registration confirmation will be emailed to you.</p>
  <input type="submit" name="wp-submit" value="Register">
</form>
<p><a href="${base(name)}/login">Log in</a> | <a href="${base(name)}/lostpassword">Lost your password?</a></p>`,
    );
  const loginForm = (error?: string, notice?: string) =>
    page(
      "Log In",
      `${notice ? `<p class="message">${notice}</p>` : ""}${errorAlert(error)}
<form method="post" action="${base(name)}/login">
  <label>Username or Email Address <input name="log" autocomplete="username"></label>
  <label>Password <input type="password" name="pwd" autocomplete="current-password"></label>
  <input type="submit" value="Log In">
</form>
<p><a href="${base(name)}/signup">Register</a> | <a href="${base(name)}/lostpassword">Lost your password?</a></p>`,
    );
  const setForm = (key: string, error?: string) => {
    const strong = randomBytes(18).toString("base64url");
    const fields = prefill
      ? `<label>New password <input type="text" name="pass1" id="pass1" autocomplete="new-password" value="${strong}"></label>
  <button type="button">Hide</button>
  <p>Hint: The password should be at least twelve characters long.</p>`
      : `<label>New password <input type="password" name="pass1" autocomplete="new-password"></label>
  <p>At least ${MIN_PASSWORD} characters, including a number.</p>
  <label>Confirm password <input type="password" name="pass2" autocomplete="new-password"></label>`;
    return page(
      "Set Password",
      `<h1>Enter your new password below.</h1>${errorAlert(error)}
<form method="post" action="${base(name)}/resetpass?key=${encodeURIComponent(key)}">
  ${fields}
  <input type="submit" value="${prefill ? "Save Password" : "Set password"}">
</form>`,
    );
  };

  r.get(`${base(name)}/signup`, (_req, res) => {
    res.type("html").send(registerForm({}));
  });
  r.post(`${base(name)}/signup`, urlencoded({ extended: false }), async (req, res) => {
    const body = fieldsOf(req);
    const [username, email] = [(body.user_login ?? "").trim(), (body.user_email ?? "").trim()];
    accounts.noteAttempt(name, email);
    const refusal = firstRefusal([
      [!username || !email, REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [registry.usernameTaken(username), REFUSALS.usernameTaken],
      [registry.emailTaken(name, email), REFUSALS.emailTaken],
    ]);
    if (refusal) return res.type("html").send(registerForm(body, refusal));
    const key = randomBytes(20).toString("hex");
    const record = registry.create(name, { email, username }, "", false);
    // An address with delivery "expired" gets a link whose key the site no longer knows.
    if (accounts.deliveryFor(email) !== "expired") keys.set(key, record);
    const here = `${origin(req)}${base(name)}`;
    await sendMail(accounts, outbox, setPasswordMail(email, username, `${here}/resetpass?key=${key}`, `${here}/login`));
    await new Promise((resolve) => setTimeout(resolve, MAIL_DELAY_MS));
    // Sent on by script, as sites do after a POST: the browser's own navigation, not a 302.
    const next = `${base(name)}/login?checkemail=registered`;
    res
      .type("html")
      .send(
        page(
          "Registration",
          "<p>Registration complete. Redirecting…</p>",
          `setTimeout(() => location.replace(${JSON.stringify(next)}), ${REDIRECT_DELAY_MS});`,
        ),
      );
  });
  r.get(`${base(name)}/login`, (req, res, next) => {
    if (req.query.checkemail !== "registered") return next();
    res
      .type("html")
      .send(loginForm(undefined, "Registration complete. Please check your email, then visit the login page."));
  });
  r.get(`${base(name)}/resetpass`, (req, res) => {
    const key = String(req.query.key ?? "");
    if (!keys.has(key))
      return res
        .type("html")
        .send(page("Lost Password", `<h1>Lost Password</h1>${errorAlert(SET_PASSWORD_REFUSALS.link)}`));
    res.type("html").send(setForm(key));
  });
  r.post(`${base(name)}/resetpass`, urlencoded({ extended: false }), (req, res) => {
    const key = String(req.query.key ?? "");
    const record = keys.get(key);
    if (!record)
      return res
        .type("html")
        .send(page("Lost Password", `<h1>Lost Password</h1>${errorAlert(SET_PASSWORD_REFUSALS.link)}`));
    const body = fieldsOf(req);
    const password = body.pass1 ?? "";
    const refusal = firstRefusal([
      [
        password.length < (prefill ? 1 : MIN_PASSWORD) || (!prefill && !/\d/.test(password)),
        SET_PASSWORD_REFUSALS.rules,
      ],
      [!prefill && password !== body.pass2, REFUSALS.mismatch],
    ]);
    if (refusal) return res.type("html").send(setForm(key, refusal));
    keys.delete(key);
    registry.confirm(record, password);
    res
      .type("html")
      .send(
        page(
          "Password Reset",
          `<p class="message">Your password has been reset. <a href="${base(name)}/login">Log in</a></p>`,
        ),
      );
  });
  r.use(
    formCase(accounts, name, (error) => loginForm(error), {
      fields: { user: "log", pass: "pwd" },
      messages: {
        wrong: "Error: The password you entered is incorrect.",
        locked: "Error: Too many failed login attempts.",
      },
    }),
  );
  return r;
}
