import { randomBytes, randomInt } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import type { Outbox } from "../outbox";
import { base, errorAlert, startSession } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, keep, loginPage, REFUSALS, sendMail, tooShort, loginOffer } from "./kit";
import type { SignupRecord, SignupRegistry } from "./registry";

const NAME = "signup-code";
const MIN_PASSWORD = 10;
const TICKET = `${NAME}_ticket`;
// Good for this long, as on real sites; an address with delivery "expired" gets a code that is not.
const VALID_MS = 10 * 60_000;

interface Pending {
  record: SignupRecord;
  email: string;
  code: string;
  expiresAt: number;
}

const codeMail = (to: string, code: string) => ({
  to,
  subject: "Verify your email",
  text: `Hi,\n\nYour Acme verification code is ${code}. It expires in 10 minutes.\n\nIf you did not sign up for Acme, you can ignore this email.\n\nAcme Inc., 500 Market Street, San Francisco 94105`,
  html: `<div style="font-family:sans-serif"><p>Hi,</p><p>Your Acme verification code is</p><p style="font-size:24px;letter-spacing:4px"><b>${code}</b></p>
<p>It expires in 10 minutes. If you did not sign up for Acme, you can ignore this email.</p>
<p style="color:#888">Acme Inc., 500 Market Street, San Francisco 94105 · <a href="https://acme.localhost/privacy">Privacy</a> · <a href="https://acme.localhost/unsubscribe?u=8812">Unsubscribe</a></p></div>`,
});

const form = (values: Record<string, string>, error?: string) =>
  page(
    "Sign up",
    `<h1>Sign up</h1>${errorAlert(error)}
<form method="post" action="${base(NAME)}/signup">
  <label>First name <input name="first_name" autocomplete="given-name" required${keep(values.first_name)}></label>
  <label>Last name <input name="last_name" autocomplete="family-name" required${keep(values.last_name)}></label>
  <label>Email address <input type="email" name="email" required${keep(values.email)}></label>
  <label>Password <input type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD}" required></label>
  <small>At least ${MIN_PASSWORD} characters.</small>
  <label><input type="checkbox" name="newsletter"${values.newsletter === undefined ? "" : " checked"}> Send me product news</label>
  <button type="submit">Sign up</button>
</form>${loginOffer(NAME)}`,
  );

const prompt = (to: string, error?: string) =>
  page(
    "Verify your email",
    `<h1>Verify your email</h1><p>We sent a 6-digit verification code to ${escapeHtml(to)}.</p>${errorAlert(error)}
<form method="post" action="${base(NAME)}/verify"><label>Verification code <input name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6"></label>
<button type="submit">Verify</button></form>`,
  );

/** Sign-up confirmed by a 6-digit code sent by email, then signed in. */
export function signupCode(accounts: Accounts, outbox: Outbox, registry: SignupRegistry): Router {
  // By the ticket cookie the browser carries from the form to the prompt.
  const pending = new Map<string, Pending>();
  const r = Router();
  r.get(`${base(NAME)}/signup`, (_req, res) => {
    res.type("html").send(form({}));
  });
  r.post(`${base(NAME)}/signup`, urlencoded({ extended: false }), async (req, res) => {
    const body = fieldsOf(req);
    const [first, last, email, password] = [
      (body.first_name ?? "").trim(),
      (body.last_name ?? "").trim(),
      (body.email ?? "").trim(),
      body.password ?? "",
    ];
    accounts.noteAttempt(NAME, email);
    const refusal = firstRefusal([
      [!first || !last || !email || !password, REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [password.length < MIN_PASSWORD, tooShort(MIN_PASSWORD)],
      [registry.emailTaken(NAME, email), REFUSALS.emailTaken],
    ]);
    if (refusal) return res.type("html").send(form(body, refusal));
    const record = registry.create(
      NAME,
      { email, name: `${first} ${last}`, newsletter: body.newsletter !== undefined },
      password,
      false,
    );
    const ticket = randomBytes(16).toString("hex");
    const code = String(randomInt(100000, 1000000));
    pending.set(ticket, {
      record,
      email,
      code,
      expiresAt: accounts.deliveryFor(email) === "expired" ? Date.now() - 1 : Date.now() + VALID_MS,
    });
    await sendMail(accounts, outbox, codeMail(email, code));
    res.cookie(TICKET, ticket, { httpOnly: true, path: "/", sameSite: "lax" }).redirect(302, `${base(NAME)}/verify`);
  });
  r.get(`${base(NAME)}/verify`, (req, res) => {
    res.type("html").send(prompt(pending.get(readCookie(req.headers.cookie, TICKET) ?? "")?.email ?? "you"));
  });
  r.post(`${base(NAME)}/verify`, urlencoded({ extended: false }), (req, res) => {
    const ticket = readCookie(req.headers.cookie, TICKET) ?? "";
    const sent = pending.get(ticket);
    if (!sent || sent.code !== (fieldsOf(req).code ?? "").trim() || sent.expiresAt <= Date.now()) {
      return res.type("html").send(prompt(sent?.email ?? "you", "That code is incorrect or has expired."));
    }
    pending.delete(ticket);
    registry.confirm(sent.record);
    startSession(res, accounts, NAME, sent.email);
    res.clearCookie(TICKET, { path: "/" }).redirect(302, `${base(NAME)}/account`);
  });
  // Signing in to an account whose email is not confirmed asks for the code that was mailed (as Cognito's and
  // many hosted login pages do); the code sent at signup still counts.
  r.post(`${base(NAME)}/login`, urlencoded({ extended: false }), (req, res, next) => {
    const { email = "", password = "" } = fieldsOf(req);
    const waiting = [...pending.values()].find(
      (p) => p.email.toLowerCase() === email.trim().toLowerCase() && registry.pendingPasswordIs(p.record, password),
    );
    if (!waiting) return next();
    const ticket = randomBytes(16).toString("hex");
    pending.set(ticket, waiting);
    res.cookie(TICKET, ticket, { httpOnly: true, path: "/", sameSite: "lax" }).redirect(302, `${base(NAME)}/verify`);
  });
  r.use(loginPage(accounts, NAME));
  return r;
}
