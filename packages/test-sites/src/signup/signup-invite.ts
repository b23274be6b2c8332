import { Router, urlencoded, type Request, type Response } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, startSession } from "../cases/kit";
import type { Invitations } from "./invitations";
import { fieldsOf, firstRefusal, isEmail, keep, loginPage, REFUSALS, tooShort } from "./kit";
import type { SignupRegistry } from "./registry";

const NAME = "signup-invite";
const MIN_PASSWORD = 8;

export const invitationPath = (token: string) => `${base(NAME)}/invite/${encodeURIComponent(token)}`;

/**
 * The invitation link's form (the token hidden, a bound address shown read-only) or the join page's
 * (the code typed in, any address).
 */
const form = (join: boolean, values: Record<string, string>, bound: string | null, error?: string) =>
  page(
    "Join Acme",
    `<h1>Join Acme</h1><p>${join ? "Enter the invitation code from your email to create your account." : "Ada Lovelace invited you to join the Acme workspace."}</p>${errorAlert(error)}
<form method="post" action="${base(NAME)}/${join ? "join" : "accept"}">
  ${join ? `<label>Invitation code <input name="invite_code" required${keep(values.invite_code)}></label>` : `<input type="hidden" name="token"${keep(values.token)}>`}
  <label>Email <input type="email" name="email" autocomplete="email" required${bound ? `${keep(bound)} readonly` : keep(values.email)}></label>
  <label>Your name <input name="name" autocomplete="name" required${keep(values.name)}></label>
  <label>Password <input type="password" name="password" autocomplete="new-password" minlength="${MIN_PASSWORD}" required></label>
  <button type="submit">${join ? "Join" : "Accept invitation"}</button>
</form>`,
  );

const refusedCode = () =>
  page(
    "Join Acme",
    `<h1>Join Acme</h1>${errorAlert(REFUSALS.inviteCode)}
<form method="get" action="${base(NAME)}/join"><label>Invitation code <input name="code"></label><button type="submit">Try another code</button></form>
<h2>Already a member?</h2>
<form method="post" action="${base(NAME)}/login"><label>Email <input type="email" name="email" autocomplete="username"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label><button type="submit">Log in</button></form>`,
  );

/**
 * Sign-up by invitation only, from its link or with its code typed in; signed in at once. Like many
 * invite-only sites, its invitation pages link to no login page: the site sends a visitor without cookies
 * from its signed-in pages to it.
 */
export function signupInvite(accounts: Accounts, registry: SignupRegistry, invitations: Invitations): Router {
  const r = Router();
  const accept = (join: boolean) => (req: Request, res: Response) => {
    const body = fieldsOf(req);
    const token = (body[join ? "invite_code" : "token"] ?? "").trim();
    const [email, name, password] = [(body.email ?? "").trim(), (body.name ?? "").trim(), body.password ?? ""];
    accounts.noteAttempt(NAME, email);
    const invitation = invitations.find(token);
    const refusal = firstRefusal([
      [(join && !token) || !email || !name || !password, REFUSALS.missing],
      [
        !invitation || (invitation.email !== null && invitation.email.toLowerCase() !== email.toLowerCase()),
        REFUSALS.invitation,
      ],
      [!isEmail(email), REFUSALS.email],
      [password.length < MIN_PASSWORD, tooShort(MIN_PASSWORD)],
      [registry.emailTaken(NAME, email), REFUSALS.emailTaken],
    ]);
    // A code typed in that names no invitation: the join page's refusal, with only the code field to try
    // again and a login form for members, as invite-only sites answer (no signup form shown again).
    if (join && token && !invitation) return res.type("html").send(refusedCode());
    if (refusal) return res.type("html").send(form(join, body, join ? null : (invitation?.email ?? null), refusal));
    invitations.use(token);
    registry.create(NAME, { email, name, invitation: token }, password, true);
    startSession(res, accounts, NAME, email);
    res.redirect(302, `${base(NAME)}/account`);
  };
  r.get(`${base(NAME)}/invite/:token`, (req, res) => {
    const invitation = invitations.find(req.params.token);
    if (!invitation)
      return res
        .status(404)
        .type("html")
        .send(page("Join Acme", `<h1>Join Acme</h1>${errorAlert(REFUSALS.invitation)}`));
    res.type("html").send(form(false, { token: req.params.token }, invitation.email));
  });
  r.get(`${base(NAME)}/join`, (_req, res) => {
    res.type("html").send(form(true, {}, null));
  });
  r.post(`${base(NAME)}/accept`, urlencoded({ extended: false }), accept(false));
  r.post(`${base(NAME)}/join`, urlencoded({ extended: false }), accept(true));
  r.use(loginPage(accounts, NAME));
  return r;
}
