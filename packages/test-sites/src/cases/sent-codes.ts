import { randomBytes } from "node:crypto";
import { Router } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { type Outbox, sendMail } from "../outbox";
import { base, formCase, plainForm, startSession } from "./kit";
import { defineCase, mfaRequired } from "./login-case";
import { ACCOUNT_PHONE } from "./person-steps";
import { ALERT_PROMPT, codeStep, passwordlessForm, PLAIN_PROMPT, Sent } from "./sent-code-step";

const codeMail = (to: string, code: string) => ({
  to,
  subject: "Your Acme sign-in code",
  text: `Hi,\n\nYour Acme sign-in code is ${code}. It expires in 10 minutes.\n\nIf you did not try to sign in, you can ignore this email.\nQuestions? Call us at +1 415 555 0100 or reply to this mail.\n\nAcme Inc., 500 Market Street, San Francisco 94105`,
  html: `<div style="font-family:sans-serif"><p>Hi,</p><p>Your Acme sign-in code is</p><p style="font-size:24px;letter-spacing:4px"><b>${code}</b></p>
<p>It expires in 10 minutes. If you did not try to sign in, you can ignore this email.</p>
<p style="color:#888">Acme Inc., 500 Market Street, San Francisco 94105 · <a href="https://acme.localhost/privacy">Privacy</a> · <a href="https://acme.localhost/unsubscribe?u=8812">Unsubscribe</a></p></div>`,
});

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
