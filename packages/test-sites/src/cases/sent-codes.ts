import { randomBytes, randomInt } from "node:crypto";
import { type Request, type Response, Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { type Outbox, sendMail } from "../outbox";
import { accountRoute, base, errorAlert, formCase, plainForm, startSession } from "./kit";
import { ACCOUNT_PHONE } from "./person-steps";
import { defineCase, mfaRequired } from "./login-case";

// Codes and links are good for this long, as on real sites; a user with delivery "expired" gets one that is not.
const VALID_MS = 10 * 60_000;

interface Pending {
  username: string;
  secret: string;
  expiresAt: number;
}

/** A site's memory of codes or links it sent: by the ticket cookie (codes) or by the token itself (links). */
class Sent {
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

const codeMail = (to: string, code: string) => ({
  to,
  subject: "Your Acme sign-in code",
  text: `Hi,\n\nYour Acme sign-in code is ${code}. It expires in 10 minutes.\n\nIf you did not try to sign in, you can ignore this email.\nQuestions? Call us at +1 415 555 0100 or reply to this mail.\n\nAcme Inc., 500 Market Street, San Francisco 94105`,
  html: `<div style="font-family:sans-serif"><p>Hi,</p><p>Your Acme sign-in code is</p><p style="font-size:24px;letter-spacing:4px"><b>${code}</b></p>
<p>It expires in 10 minutes. If you did not try to sign in, you can ignore this email.</p>
<p style="color:#888">Acme Inc., 500 Market Street, San Francisco 94105 · <a href="https://acme.localhost/privacy">Privacy</a> · <a href="https://acme.localhost/unsubscribe?u=8812">Unsubscribe</a></p></div>`,
});

/** How a code prompt looks and what it answers a wrong code with. */
interface CodePrompt {
  refused: string;
  /** The page body, with the refusal when there is one. */
  html: (sentTo: string, to: string, action: string, error?: string) => string;
}

const ALERT_PROMPT: CodePrompt = {
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
const PLAIN_PROMPT: CodePrompt = {
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
function codeStep(
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
function passwordlessForm(
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

/** Passwordless: the email address, then a 6-digit code sent to it by mail (login_method otp_email). */
function emailCode(accounts: Accounts, outbox: Outbox): Router {
  const name = "email-code";
  const step = codeStep(accounts, name, (to, code) => sendMail(accounts, outbox, codeMail(to, code)), "email");
  const r = Router();
  r.use(step.router);
  r.use(
    passwordlessForm(
      accounts,
      name,
      {
        title: "Sign in to Acme",
        field: "email",
        input: `<label>Email address <input type="email" name="email" autocomplete="email" required></label>`,
        button: "Email me a code",
        unknown: "We couldn't find an account with that email address.",
      },
      (_req, res, email) => step.send(res, email),
    ),
  );
  return r;
}

/** Username and password first, then a code sent by email to the account's address (a password login's second factor). */
function passwordEmailCode(accounts: Accounts, outbox: Outbox): Router {
  const name = "password-email-code";
  const step = codeStep(accounts, name, (to, code) => sendMail(accounts, outbox, codeMail(to, code)), "email");
  const r = Router();
  r.use(step.router);
  r.use(
    formCase(accounts, name, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(name, error)}`), {
      onSuccess: (_req, res, username) => {
        step.send(res, username).catch((err: unknown) =>
          res
            .status(500)
            .type("text")
            .send(`could not send the code: ${String(err)}`),
        );
      },
    }),
  );
  return r;
}

/**
 * Password, then a 6-digit code texted to the phone on the account: the person's own number, not one of
 * ours, so only they can read it. What their phone shows is kept for the tests as a held delivery
 * (`GET /__fixture/deliveries/held?address=sms:<username>`).
 */
function passwordSmsCode(accounts: Accounts): Router {
  const name = "password-sms-code";
  const texted = async (username: string, code: string) =>
    accounts.hold(
      `sms:${username}`,
      {
        to: ACCOUNT_PHONE,
        subject: "",
        text: `${code} is your Acme verification code. Don't share it with anyone.`,
        html: "",
      },
      async () => undefined,
    );
  const step = codeStep(
    accounts,
    name,
    texted,
    "phone",
    ALERT_PROMPT,
    () => `your phone ending in ${ACCOUNT_PHONE.slice(-4)}`,
  );
  const r = Router();
  r.use(step.router);
  r.use(
    formCase(accounts, name, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(name, error)}`), {
      onSuccess: (_req, res, username) => void step.send(res, username),
    }),
  );
  return r;
}

/** Passwordless: the phone number, then a 6-digit code by SMS (login_method otp_sms). */
function smsCode(accounts: Accounts, outbox: Outbox): Router {
  const name = "sms-code";
  const step = codeStep(
    accounts,
    name,
    (to, code) => outbox.sms(to, `${code} is your Acme verification code. Don't share it with anyone.`),
    "phone",
  );
  const r = Router();
  r.use(step.router);
  r.use(
    passwordlessForm(
      accounts,
      name,
      {
        title: "Sign in with your phone",
        field: "phone",
        input: `<label>Mobile number <input type="tel" name="phone" autocomplete="tel" placeholder="+1 415 555 0123" required></label>`,
        button: "Text me a code",
        unknown: "We couldn't find an account with that number.",
        normalize: (value) => value.replace(/[\s()-]/g, ""),
      },
      (_req, res, phone) => step.send(res, phone),
    ),
  );
  return r;
}

/** Passwordless: the email address, then a sign-in link by mail, opened in the same browser (login_method magic_link). */
function magicLink(accounts: Accounts, outbox: Outbox): Router {
  const name = "magic-link";
  const sent = new Sent();
  const r = Router();
  const form = {
    title: "Sign in to Acme",
    field: "email",
    input: `<label>Work email <input type="email" name="email" autocomplete="username" required></label>`,
    button: "Send me a sign-in link",
    unknown: "We couldn't find an account with that email address.",
  };
  r.use(
    passwordlessForm(accounts, name, form, async (req, res, email) => {
      const token = randomBytes(24).toString("base64url");
      sent.issue(accounts, email, token, token);
      const here = `${req.protocol}://${req.headers.host}`;
      const link = `${here}${base(name)}/auth?token=${token}`;
      await sendMail(accounts, outbox, {
        to: email,
        subject: "Sign in to Acme",
        text: `Click the link below to sign in to Acme:\n\n${link}\n\nThe link expires in 10 minutes and can be used once.\n\nHelp: ${here}/help · Unsubscribe: ${here}${base(name)}/unsubscribe?e=1`,
        html: `<p>Hi,</p><p><a href="${link}" style="background:#2255ee;color:#fff;padding:8px 16px">Sign in to Acme</a></p>
<p>The link expires in 10 minutes and can be used once.</p>
<p style="color:#888"><a href="${here}/help">Help center</a> · <a href="${here}${base(name)}/unsubscribe?e=1">Unsubscribe</a> · <a href="https://acme.localhost/privacy">Privacy</a></p>`,
      });
      res
        .type("html")
        .send(
          page(
            "Check your email",
            `<h1>Check your email</h1><p>We sent a sign-in link to ${escapeHtml(email)}. Open it on this device to continue.</p>`,
          ),
        );
    }),
  );
  r.get(`${base(name)}/auth`, (req, res) => {
    const token = String(req.query.token ?? "");
    const username = sent.redeem(token, token);
    if (!username) {
      return res
        .status(410)
        .type("html")
        .send(
          page(
            "Link expired",
            `<h1>Sign in to Acme</h1><p>This sign-in link has expired or was already used.</p><p><a href="${base(name)}/login">Request a new one</a></p>`,
          ),
        );
    }
    startSession(res, accounts, name, username);
    res.redirect(302, `${base(name)}/account`);
  });
  return r;
}

/** The email-code login whose prompt refuses a wrong (or expired) code in plain text, no alert markup. */
function emailCodePlain(accounts: Accounts, outbox: Outbox): Router {
  const name = "email-code-plain";
  const step = codeStep(
    accounts,
    name,
    (to, code) => sendMail(accounts, outbox, codeMail(to, code)),
    "email",
    PLAIN_PROMPT,
  );
  const r = Router();
  r.use(step.router);
  r.use(
    passwordlessForm(
      accounts,
      name,
      {
        title: "Sign in",
        field: "email",
        input: `<label>Email <input type="email" name="email" autocomplete="email" required></label>`,
        button: "Continue with email",
        unknown: "We couldn't find an account with that email address.",
      },
      (_req, res, email) => step.send(res, email),
    ),
  );
  return r;
}

export const sentCodeCases = defineCase({
  router: ({ accounts, outbox }) => [
    emailCode(accounts, outbox),
    emailCodePlain(accounts, outbox),
    magicLink(accounts, outbox),
    passwordEmailCode(accounts, outbox),
    smsCode(accounts, outbox),
  ],
  sentCodes: [
    { name: "email-code", method: "otp_email", expect: "email only, then a 6-digit code by email" },
    {
      name: "email-code-plain",
      method: "otp_email",
      expect: "email only, then a code by email; a wrong code refused in a plain div",
    },
    { name: "magic-link", method: "magic_link", expect: "email only, then a sign-in link by email" },
    { name: "password-email-code", method: "password", expect: "password, then a 6-digit code by email" },
    { name: "sms-code", method: "otp_sms", expect: "phone number only, then a 6-digit code by SMS" },
  ],
});

export const passwordSmsCodeCase = defineCase({
  router: ({ accounts }) => passwordSmsCode(accounts),
  cases: [mfaRequired("password-sms-code")],
});
