import { randomBytes } from "node:crypto";
import { type Request, type Response, Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import type { Outbox } from "../outbox";
import { base, errorAlert } from "../cases/kit";
import {
  fieldsOf,
  firstRefusal,
  isEmail,
  keep,
  loginPage,
  origin,
  REFUSALS,
  sendMail,
  tooShort,
  loginOffer,
} from "./kit";
import type { SignupRecord, SignupRegistry } from "./registry";

const MIN_PASSWORD = 8;

const confirmMail = (site: string, to: string, link: string, here: string) => ({
  to,
  subject: "Confirm your Acme account",
  text: `Welcome to Acme!\n\nConfirm your email address to activate your account:\n\n${link}\n\nIf you did not sign up, you can ignore this email.\n\nHelp: ${here}/help · Unsubscribe: ${here}${base(site)}/unsubscribe?e=1`,
  html: `<p>Welcome to Acme!</p><p><a href="${link}" style="background:#2255ee;color:#fff;padding:8px 16px">Confirm my email</a></p>
<p>If you did not sign up, you can ignore this email.</p>
<p style="color:#888"><a href="${here}/help">Help center</a> · <a href="${here}${base(site)}/unsubscribe?e=1">Unsubscribe</a> · <a href="https://acme.localhost/privacy">Privacy</a></p>`,
});

const form = (site: string, values: Record<string, string>, error?: string) =>
  page(
    "Create your account",
    `<h1>Create your account</h1>${errorAlert(error)}
<form method="post" action="${base(site)}/signup">
  <label>Full name <input name="full_name" autocomplete="name" required${keep(values.full_name)}></label>
  <label>Email <input type="email" name="email" autocomplete="email" required${keep(values.email)}></label>
  <label>Password <input type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD}" required></label>
  <label>Confirm password <input type="password" name="password_confirm" autocomplete="new-password" required></label>
  <label><input type="checkbox" name="terms" required${values.terms === undefined ? "" : " checked"}> I agree to the Terms of Service</label>
  <button type="submit">Create account</button>
</form>
${loginOffer(site)}`,
  );

/**
 * Sign-up confirmed by a link sent by email; the confirmed account then logs in itself (no automatic
 * sign-in). `confirmByButton`: the link opens a page that asks to press Confirm (a POST) before the address
 * counts, as django-allauth and many frameworks do (a GET changes nothing: mail scanners open links); until
 * then a login shows "Verify your email address" instead of signing in.
 */
export function signupLink(
  accounts: Accounts,
  outbox: Outbox,
  registry: SignupRegistry,
  site = "signup-link",
  confirmByButton = false,
): Router {
  const pending = new Map<string, SignupRecord>();
  const r = Router();
  r.get(`${base(site)}/signup`, (_req, res) => {
    res.type("html").send(form(site, {}));
  });
  r.post(`${base(site)}/signup`, urlencoded({ extended: false }), async (req, res) => {
    const body = fieldsOf(req);
    const [name, email, password] = [(body.full_name ?? "").trim(), (body.email ?? "").trim(), body.password ?? ""];
    accounts.noteAttempt(site, email);
    const refusal = firstRefusal([
      [!name || !email || !password || !body.password_confirm, REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [password.length < MIN_PASSWORD, tooShort(MIN_PASSWORD)],
      [password !== body.password_confirm, REFUSALS.mismatch],
      [body.terms === undefined, REFUSALS.terms],
      [registry.emailTaken(site, email), REFUSALS.emailTaken],
    ]);
    if (refusal) return res.type("html").send(form(site, body, refusal));
    const token = randomBytes(24).toString("base64url");
    pending.set(token, registry.create(site, { email, name, termsAccepted: true }, password, false));
    await sendMail(
      accounts,
      outbox,
      confirmMail(site, email, `${origin(req)}${base(site)}/confirm?token=${token}`, origin(req)),
    );
    res
      .type("html")
      .send(
        page(
          "Check your email",
          `<h1>Check your email</h1><p>We sent a confirmation link to ${escapeHtml(email)}. Open it to activate your account.</p>`,
        ),
      );
  });
  const confirm = (req: Request, res: Response) => {
    const token = String(req.query.token ?? "");
    const record = pending.get(token);
    if (!record) {
      return res
        .status(410)
        .type("html")
        .send(
          page(
            "Confirm your email",
            `<h1>Confirm your email</h1>${errorAlert("This confirmation link is invalid or has already been used.")}`,
          ),
        );
    }
    if (confirmByButton && req.method === "GET") {
      return res.type("html").send(
        page(
          "Confirm Email Address",
          `<h1>Confirm Email Address</h1><p>Please confirm that <a href="mailto:${escapeHtml(record.email ?? "")}">${escapeHtml(record.email ?? "")}</a> is an email address for user ${escapeHtml(record.email ?? "")}.</p>
<form method="post" action="${base(site)}/confirm?token=${encodeURIComponent(token)}"><input type="hidden" name="csrfmiddlewaretoken" value="${randomBytes(8).toString("hex")}"><button type="submit">Confirm</button></form>`,
        ),
      );
    }
    pending.delete(token);
    registry.confirm(record);
    res
      .type("html")
      .send(
        page(
          "Email confirmed",
          `<h1>Email confirmed</h1><p>Your email address is confirmed. Please log in to continue.</p><a href="${base(site)}/login">Log in</a>`,
        ),
      );
  };
  r.get(`${base(site)}/confirm`, confirm);
  r.post(`${base(site)}/confirm`, urlencoded({ extended: false }), confirm);
  r.use(loginPage(accounts, site));
  return r;
}
