import { Router, urlencoded, type Request, type Response } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, startSession } from "../cases/kit";
import { imageChallenge } from "../cases/image-captcha";
import { fieldsOf, firstRefusal, isEmail, keep, loginOffer, loginPage, REFUSALS, tooShort } from "./kit";
import type { SignupRegistry } from "./registry";

const NAME = "signup-captcha";
const MIN_PASSWORD = 8;

/**
 * A server-rendered sign-up form with a distorted-text CAPTCHA (see imageChallenge), as forums and small
 * sites guard theirs: the characters are checked first, and a wrong answer shows the form again, with what
 * was typed kept (but the passwords) and new characters. Signed in at once.
 */
export function signupCaptcha(accounts: Accounts, registry: SignupRegistry): Router {
  const r = Router();
  const challenge = imageChallenge(r, NAME);
  const form = (req: Request, res: Response, error?: string, email?: string) =>
    page(
      "Create your account",
      `<h1>Create your account</h1>${errorAlert(error)}
<form method="post" action="${base(NAME)}/signup">
  <label>Email <input type="email" name="email" autocomplete="email"${keep(email)}></label>
  <label>Password <input type="password" name="password" autocomplete="new-password"></label>
  ${challenge.draw(req, res)}
  <button type="submit">Create account</button>
</form>${loginOffer(NAME)}`,
    );
  r.get(`${base(NAME)}/signup`, (req, res) => res.type("html").send(form(req, res)));
  r.post(`${base(NAME)}/signup`, urlencoded({ extended: false }), (req, res) => {
    const body = fieldsOf(req);
    const [email, password] = [(body.email ?? "").trim(), body.password ?? ""];
    const refused =
      challenge.check(body, req) ??
      firstRefusal([
        [!email || !password, REFUSALS.missing],
        [!isEmail(email), REFUSALS.email],
        [password.length < MIN_PASSWORD, tooShort(MIN_PASSWORD)],
        [registry.emailTaken(NAME, email), REFUSALS.emailTaken],
      ]);
    if (refused) return res.type("html").send(form(req, res, refused, email));
    accounts.noteAttempt(NAME, email);
    registry.create(NAME, { email, username: null }, password, true);
    startSession(res, accounts, NAME, email);
    res.redirect(302, `${base(NAME)}/account`);
  });
  r.use(loginPage(accounts, NAME));
  return r;
}
