import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { base, errorAlert, formCase, plainForm, sessionCookie, startSession } from "./kit";

/**
 * Steps after the right password that only the account's person can take, as many sites ask them. The
 * password opens a ticket (a cookie that signs nobody in); the step, answered, turns it into the session.
 */

const tickets = new Map<string, string>();
const openTicket = (username: string) => {
  const ticket = randomBytes(16).toString("hex");
  tickets.set(ticket, username);
  return ticket;
};
const ticketUser = (cookie: string | undefined) => tickets.get(readCookie(cookie, "step_ticket") ?? "");

/** The answer every fixture account set for its security question. */
export const SECURITY_ANSWER = "Rex";

const QUESTION = "security-question";

/**
 * A security question after the password (banks, older enterprise portals): "What was the name of your first
 * pet?" in a password-type field named "answer". A wrong answer shows the question again with the site's
 * refusal; the right one signs in.
 */
export function securityQuestion(accounts: Accounts): Router {
  const r = Router();
  const question = (error?: string) =>
    page(
      "Security question",
      `<h1>Security question</h1>${errorAlert(error)}
<form method="post" action="${base(QUESTION)}/question">
  <p>Answer your security question to finish signing in.</p>
  <label>What was the name of your first pet? <input name="answer" type="password" autocomplete="off"></label>
  <button type="submit">Continue</button>
</form>`,
    );
  r.get(`${base(QUESTION)}/question`, (req, res) => {
    if (!ticketUser(req.headers.cookie)) return res.redirect(302, `${base(QUESTION)}/login`);
    res.type("html").send(question());
  });
  r.post(`${base(QUESTION)}/question`, urlencoded({ extended: false }), (req, res) => {
    const username = ticketUser(req.headers.cookie);
    if (!username) return res.redirect(302, `${base(QUESTION)}/login`);
    const answer = String((req.body as Record<string, string>).answer ?? "");
    if (answer.trim().toLowerCase() !== SECURITY_ANSWER.toLowerCase()) return res.type("html").send(question("That answer doesn't match our records. Try again."));
    tickets.delete(readCookie(req.headers.cookie, "step_ticket") ?? "");
    startSession(res, accounts, QUESTION, username);
    res.clearCookie("step_ticket", { path: "/" }).redirect(302, `${base(QUESTION)}/account`);
  });
  r.use(
    formCase(accounts, QUESTION, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(QUESTION, error)}`), {
      onSuccess: (_req, res, username) => res.cookie("step_ticket", openTicket(username), { httpOnly: true, path: "/" }).redirect(302, `${base(QUESTION)}/question`),
    }),
  );
  return r;
}

const CHOOSER = "account-chooser";
/** The organizations every fixture account belongs to, as the chooser lists them. */
export const CHOOSER_ORGS = ["Acme Corp (Owner)", "Globex (Member)"];

/**
 * An organization chooser after the password (workspace and tenant pickers): "Choose an account" and one button
 * per organization. Only the choice starts the session, for that organization; its account page says which.
 */
export function accountChooser(accounts: Accounts): Router {
  const r = Router();
  r.get(`${base(CHOOSER)}/choose`, (req, res) => {
    if (!ticketUser(req.headers.cookie)) return res.redirect(302, `${base(CHOOSER)}/login`);
    const buttons = CHOOSER_ORGS.map((org, i) => `<li><button name="org" value="${i}">${escapeHtml(org)}</button></li>`).join("");
    res.type("html").send(page("Choose an account", `<h1>Choose an account</h1><form method="post" action="${base(CHOOSER)}/choose"><ul>${buttons}</ul></form><p><a href="${base(CHOOSER)}/login">Use a different sign-in</a></p>`));
  });
  r.post(`${base(CHOOSER)}/choose`, urlencoded({ extended: false }), (req, res) => {
    const username = ticketUser(req.headers.cookie);
    const org = CHOOSER_ORGS[Number((req.body as Record<string, string>).org)];
    if (!username || !org) return res.redirect(302, `${base(CHOOSER)}/login`);
    tickets.delete(readCookie(req.headers.cookie, "step_ticket") ?? "");
    startSession(res, accounts, CHOOSER, username);
    res.cookie("chooser_org", String(CHOOSER_ORGS.indexOf(org)), { httpOnly: true, path: "/" }).clearCookie("step_ticket", { path: "/" }).redirect(302, `${base(CHOOSER)}/account`);
  });
  // The account page names the organization chosen.
  r.get(`${base(CHOOSER)}/account`, (req, res, next) => {
    const user = accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(CHOOSER)));
    if (!user) return next();
    const org = CHOOSER_ORGS[Number(readCookie(req.headers.cookie, "chooser_org"))] ?? "";
    res.type("html").send(page("Account", `<nav><a href="${base(CHOOSER)}/logout">Sign out</a></nav><h1>Welcome, ${escapeHtml(user)}</h1><p>Organization: ${escapeHtml(org)}</p>`));
  });
  r.use(
    formCase(accounts, CHOOSER, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(CHOOSER, error)}`), {
      onSuccess: (_req, res, username) => res.cookie("step_ticket", openTicket(username), { httpOnly: true, path: "/" }).redirect(302, `${base(CHOOSER)}/choose`),
    }),
  );
  return r;
}
