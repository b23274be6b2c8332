import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import type { Outbox } from "../outbox";
import { base, errorAlert } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, loginPage, origin, REFUSALS, sendMail, tooShort, loginOffer } from "./kit";
import type { SignupRecord, SignupRegistry } from "./registry";

const NAME = "signup-link";
const MIN_PASSWORD = 8;

const confirmMail = (to: string, link: string, here: string) => ({
  to,
  subject: "Confirm your Acme account",
  text: `Welcome to Acme!\n\nConfirm your email address to activate your account:\n\n${link}\n\nIf you did not sign up, you can ignore this email.\n\nHelp: ${here}/help · Unsubscribe: ${here}${base(NAME)}/unsubscribe?e=1`,
  html: `<p>Welcome to Acme!</p><p><a href="${link}" style="background:#2255ee;color:#fff;padding:8px 16px">Confirm my email</a></p>
<p>If you did not sign up, you can ignore this email.</p>
<p style="color:#888"><a href="${here}/help">Help center</a> · <a href="${here}${base(NAME)}/unsubscribe?e=1">Unsubscribe</a> · <a href="https://acme.localhost/privacy">Privacy</a></p>`,
});

const form = (values: Record<string, string>, error?: string) =>
  page("Create your account", `<h1>Create your account</h1>${errorAlert(error)}
<form method="post" action="${base(NAME)}/signup">
  <label>Full name <input name="full_name" autocomplete="name" required${keep(values.full_name)}></label>
  <label>Email <input type="email" name="email" autocomplete="email" required${keep(values.email)}></label>
  <label>Password <input type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD}" required></label>
  <label>Confirm password <input type="password" name="password_confirm" autocomplete="new-password" required></label>
  <label><input type="checkbox" name="terms" required${values.terms === undefined ? "" : " checked"}> I agree to the Terms of Service</label>
  <button type="submit">Create account</button>
</form>
${loginOffer(NAME)}`);

/** Sign-up confirmed by a link sent by email; the confirmed account then logs in itself (no automatic sign-in). */
export function signupLink(accounts: Accounts, outbox: Outbox, registry: SignupRegistry): Router {
  const pending = new Map<string, SignupRecord>();
  const r = Router();
  r.get(`${base(NAME)}/signup`, (_req, res) => {
    res.type("html").send(form({}));
  });
  r.post(`${base(NAME)}/signup`, urlencoded({ extended: false }), async (req, res) => {
    const body = fieldsOf(req);
    const [name, email, password] = [(body.full_name ?? "").trim(), (body.email ?? "").trim(), body.password ?? ""];
    accounts.noteAttempt(NAME, email);
    const refusal = firstRefusal([
      [!name || !email || !password || !body.password_confirm, REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [password.length < MIN_PASSWORD, tooShort(MIN_PASSWORD)],
      [password !== body.password_confirm, REFUSALS.mismatch],
      [body.terms === undefined, REFUSALS.terms],
      [registry.emailTaken(NAME, email), REFUSALS.emailTaken],
    ]);
    if (refusal) return res.type("html").send(form(body, refusal));
    const token = randomBytes(24).toString("base64url");
    pending.set(token, registry.create(NAME, { email, name, termsAccepted: true }, password, false));
    await sendMail(accounts, outbox, confirmMail(email, `${origin(req)}${base(NAME)}/confirm?token=${token}`, origin(req)));
    res.type("html").send(page("Check your email", `<h1>Check your email</h1><p>We sent a confirmation link to ${escapeHtml(email)}. Open it to activate your account.</p>`));
  });
  r.get(`${base(NAME)}/confirm`, (req, res) => {
    const token = String(req.query.token ?? "");
    const record = pending.get(token);
    if (!record) {
      return res.status(410).type("html").send(page("Confirm your email", `<h1>Confirm your email</h1>${errorAlert("This confirmation link is invalid or has already been used.")}`));
    }
    pending.delete(token);
    registry.confirm(record);
    res.type("html").send(page("Email confirmed", `<h1>Email confirmed</h1><p>Your email address is confirmed. Please log in to continue.</p><a href="${base(NAME)}/login">Log in</a>`));
  });
  r.use(loginPage(accounts, NAME));
  return r;
}
