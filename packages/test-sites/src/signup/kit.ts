import type { Request, Router } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { base, errorAlert, formCase } from "../cases/kit";

/** The signup pages' refusals, word for word: tests and the engine's classifier read them. */
export const REFUSALS = {
  emailTaken: "An account with this email address already exists.",
  usernameTaken: "That username is already taken. Please choose another.",
  terms: "You must accept the terms of service.",
  mismatch: "Passwords do not match.",
  missing: "Please fill in all required fields.",
  invitation: "This invitation is invalid or has expired.",
  inviteCode: "That invitation code is not valid.",
  email: "Please enter a valid email address.",
};

export const tooShort = (min: number) => `Password must be at least ${min} characters.`;

export const isEmail = (text: string) => /^[^\s@]+@[^\s@]+$/.test(text);

/** The first refusal whose condition holds: sites report one problem at a time. */
export const firstRefusal = (checks: Array<[boolean, string]>): string | null =>
  checks.find(([refused]) => refused)?.[1] ?? null;

/** The posted fields that are strings (a form's or a JSON body's). */
export function fieldsOf(req: Request): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries((req.body ?? {}) as Record<string, unknown>))
    if (typeof value === "string") fields[key] = value;
  return fields;
}

/** The value attribute that keeps what was typed when the form is shown again. */
export const keep = (value?: string | null) => (value ? ` value="${escapeHtml(value)}"` : "");

/** The line every signup page has under its form: where an existing (and the new) account logs in. */
export const loginOffer = (name: string) => `<p>Already have an account? <a href="${base(name)}/login">Log in</a></p>`;

export const origin = (req: Request) => `${req.protocol}://${req.headers.host}`;

export { sendMail } from "../outbox";

/** Where a new account logs in (and what the account page sends a stranger to): email and password. */
export function loginPage(accounts: Accounts, name: string): Router {
  return formCase(
    accounts,
    name,
    (error) =>
      page(
        "Log in",
        `<h1>Log in</h1>${errorAlert(error)}
<form method="post" action="${base(name)}/login">
  <label>Email <input type="email" name="email" autocomplete="username"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password"></label>
  <button type="submit">Log in</button>
</form>`,
      ),
    { fields: { user: "email", pass: "password" } },
  );
}
