import { randomBytes, randomInt } from "node:crypto";
import { type Request, type Response, Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { accountRoute, base, errorAlert, startSession } from "./kit";

// What the sent-code pages (sent-codes.ts) share: the codes or links a site sent, the prompt for a code, and
// the passwordless first page.

// Codes and links are good for this long, as on real sites; a user with delivery "expired" gets one that is not.
const VALID_MS = 10 * 60_000;

interface Pending {
  username: string;
  secret: string;
  expiresAt: number;
}

/** A site's memory of codes or links it sent: by the ticket cookie (codes) or by the token itself (links). */
export class Sent {
  private readonly byKey = new Map<string, Pending>();

  issue(accounts: Accounts, username: string, secret: string, key: string): void {
    const expiresAt = accounts.deliveryFor(username) === "expired" ? Date.now() - 1 : Date.now() + VALID_MS;
    this.byKey.set(key, { username, secret, expiresAt });
  }

  /** The user, when `secret` is the one sent under `key` and still valid; used once. */
  redeem(key: string, secret: string): string | null {
    const pending = this.byKey.get(key);
    if (!pending || pending.secret !== secret.trim()) return null;
    this.byKey.delete(key);
    return pending.expiresAt > Date.now() ? pending.username : null;
  }
}

/** How a code prompt looks and what it answers a wrong code with. */
interface CodePrompt {
  refused: string;
  /** The page body, with the refusal when there is one. */
  html: (sentTo: string, to: string, action: string, error?: string) => string;
}

export const ALERT_PROMPT: CodePrompt = {
  refused: "That code is incorrect or has expired.",
  html: (
    sentTo,
    to,
    action,
    error,
  ) => `<h1>Check your ${sentTo}</h1><p>We sent a 6-digit code to ${escapeHtml(to)}. Enter it below to sign in.</p>${errorAlert(error)}
<form method="post" action="${action}"><label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6"></label>
<button type="submit">Verify</button></form><p><a href="${action.replace(/verify$/, "login")}">Send a new code</a></p>`,
};

// A masked address and a resend offer, as such prompts show; a wrong code is refused in a plain div.
export const PLAIN_PROMPT: CodePrompt = {
  refused: "That code didn't work. Check the code and try again.",
  html: (
    _sentTo,
    to,
    action,
    error,
  ) => `<main><h1>Verify it's you</h1><p>Enter the code we sent to ${escapeHtml(to.replace(/^(.)[^@]*/, "$1•••"))}</p>
<form method="post" action="${action}"><input name="code" aria-label="Code" inputmode="numeric" autocomplete="one-time-code" maxlength="6">${error ? `<div class="code-error">${escapeHtml(error)}</div>` : ""}
<button type="submit">Continue</button></form><p>Didn't get a code? <button type="button">Resend</button></p></main>`,
};

/**
 * The second step of a code sent by email or SMS: sends the code, remembers it under a ticket cookie and
 * shows the prompt; checks what is typed there. Shared by the email, password-then-email and SMS pages.
 */
export function codeStep(
  accounts: Accounts,
  name: string,
  deliver: (username: string, code: string) => Promise<void>,
  sentTo: string,
  look: CodePrompt = ALERT_PROMPT,
  shownTo: (username: string) => string = (username) => username,
) {
  const sent = new Sent();
  const r = Router();
  const prompt = (to: string, error?: string) =>
    page("Enter your code", look.html(sentTo, to, `${base(name)}/verify`, error));
  const ticketOf = (req: Request) => readCookie(req.headers.cookie, `${name}_ticket`) ?? "";
  const send = async (res: Response, username: string) => {
    const ticket = randomBytes(16).toString("hex");
    const code = String(randomInt(100000, 1000000));
    sent.issue(accounts, username, code, ticket);
    // Like a real site, a bounce (an address nobody receives mail at) does not fail the sign-in page.
    if (accounts.deliveryFor(username) !== "lost") await deliver(username, code).catch(() => undefined);
    res.cookie(`${name}_ticket`, ticket, { httpOnly: true, path: "/", sameSite: "lax" });
    res.cookie(`${name}_to`, shownTo(username), { path: "/", sameSite: "lax" }).redirect(302, `${base(name)}/verify`);
  };
  r.get(`${base(name)}/verify`, (req, res) => {
    res.type("html").send(prompt(readCookie(req.headers.cookie, `${name}_to`) ?? "you"));
  });
  r.post(`${base(name)}/verify`, urlencoded({ extended: false }), (req, res) => {
    const username = sent.redeem(ticketOf(req), String((req.body as Record<string, string>).code ?? ""));
    if (!username)
      return res.type("html").send(prompt(readCookie(req.headers.cookie, `${name}_to`) ?? "you", look.refused));
    startSession(res, accounts, name, username);
    res.clearCookie(`${name}_ticket`, { path: "/" }).redirect(302, `${base(name)}/account`);
  });
  return { router: r, send };
}

/**
 * A login page that asks for one thing (email or phone) and no password: GET shows it; POST counts the
 * attempt, refuses an unknown account in the site's words, or hands the account to `onKnown` (send a
 * code or link). The account page is the case's usual one.
 */
export function passwordlessForm(
  accounts: Accounts,
  name: string,
  form: {
    title: string;
    field: string;
    input: string;
    button: string;
    unknown: string;
    normalize?: (value: string) => string;
  },
  onKnown: (req: Request, res: Response, account: string) => Promise<void>,
): Router {
  const render = (error?: string) =>
    page(
      "Sign in",
      `<h1>${form.title}</h1>${errorAlert(error)}<form method="post" action="${base(name)}/login">${form.input}<button type="submit">${form.button}</button></form>`,
    );
  const r = Router();
  r.get(`${base(name)}/login`, (_req, res) => {
    res.type("html").send(render());
  });
  r.post(`${base(name)}/login`, urlencoded({ extended: false }), async (req, res) => {
    const raw = String((req.body as Record<string, string>)[form.field] ?? "").trim();
    const account = form.normalize ? form.normalize(raw) : raw;
    accounts.noteAttempt(name, account);
    if (!accounts.hasUser(account)) return res.type("html").send(render(form.unknown));
    await onKnown(req, res, account);
  });
  accountRoute(r, accounts, name);
  return r;
}
