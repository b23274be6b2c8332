import { randomBytes } from "node:crypto";
import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { base, errorAlert, formCase, plainForm, sessionCookie, startSession } from "./kit";
import { defineCase, mfaRequired } from "./login-case";

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
function securityQuestion(accounts: Accounts): Router {
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
    if (answer.trim().toLowerCase() !== SECURITY_ANSWER.toLowerCase())
      return res.type("html").send(question("That answer doesn't match our records. Try again."));
    tickets.delete(readCookie(req.headers.cookie, "step_ticket") ?? "");
    startSession(res, accounts, QUESTION, username);
    res.clearCookie("step_ticket", { path: "/" }).redirect(302, `${base(QUESTION)}/account`);
  });
  r.use(
    formCase(accounts, QUESTION, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(QUESTION, error)}`), {
      onSuccess: (_req, res, username) =>
        res
          .cookie("step_ticket", openTicket(username), { httpOnly: true, path: "/" })
          .redirect(302, `${base(QUESTION)}/question`),
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
function accountChooser(accounts: Accounts): Router {
  const r = Router();
  r.get(`${base(CHOOSER)}/choose`, (req, res) => {
    if (!ticketUser(req.headers.cookie)) return res.redirect(302, `${base(CHOOSER)}/login`);
    const buttons = CHOOSER_ORGS.map(
      (org, i) => `<li><button name="org" value="${i}">${escapeHtml(org)}</button></li>`,
    ).join("");
    res
      .type("html")
      .send(
        page(
          "Choose an account",
          `<h1>Choose an account</h1><form method="post" action="${base(CHOOSER)}/choose"><ul>${buttons}</ul></form><p><a href="${base(CHOOSER)}/login">Use a different sign-in</a></p>`,
        ),
      );
  });
  r.post(`${base(CHOOSER)}/choose`, urlencoded({ extended: false }), (req, res) => {
    const username = ticketUser(req.headers.cookie);
    const org = CHOOSER_ORGS[Number((req.body as Record<string, string>).org)];
    if (!username || !org) return res.redirect(302, `${base(CHOOSER)}/login`);
    tickets.delete(readCookie(req.headers.cookie, "step_ticket") ?? "");
    startSession(res, accounts, CHOOSER, username);
    res
      .cookie("chooser_org", String(CHOOSER_ORGS.indexOf(org)), { httpOnly: true, path: "/" })
      .clearCookie("step_ticket", { path: "/" })
      .redirect(302, `${base(CHOOSER)}/account`);
  });
  // The account page names the organization chosen.
  r.get(`${base(CHOOSER)}/account`, (req, res, next) => {
    const user = accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(CHOOSER)));
    if (!user) return next();
    const org = CHOOSER_ORGS[Number(readCookie(req.headers.cookie, "chooser_org"))] ?? "";
    res
      .type("html")
      .send(
        page(
          "Account",
          `<nav><a href="${base(CHOOSER)}/logout">Sign out</a></nav><h1>Welcome, ${escapeHtml(user)}</h1><p>Organization: ${escapeHtml(org)}</p>`,
        ),
      );
  });
  r.use(
    formCase(accounts, CHOOSER, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(CHOOSER, error)}`), {
      onSuccess: (_req, res, username) =>
        res
          .cookie("step_ticket", openTicket(username), { httpOnly: true, path: "/" })
          .redirect(302, `${base(CHOOSER)}/choose`),
    }),
  );
  return r;
}

/** The phone number on every fixture account, as a "verify it's you" step asks for it. */
export const ACCOUNT_PHONE = "+1 415 555 0100";

const VERIFY = "verify-identity";

/**
 * A "verify it's you" step after the right password, as sites ask from a device they do not know: the phone
 * number on the account, in a telephone field of its own (it looks like a username-first form's field). A
 * number that does not match is refused in the site's words; the right one signs in.
 */
function verifyIdentity(accounts: Accounts): Router {
  const r = Router();
  const ask = (error?: string) =>
    page(
      "Verify it's you",
      `<h1>Verify it's you</h1>${errorAlert(error)}
<p>We don't recognize this device. To keep your account safe, enter the phone number on your account.</p>
<form method="post" action="${base(VERIFY)}/verify">
  <label>Phone number <input name="phone" type="tel" autocomplete="tel"></label>
  <button type="submit">Verify</button>
</form>`,
    );
  r.get(`${base(VERIFY)}/verify`, (req, res) => {
    if (!ticketUser(req.headers.cookie)) return res.redirect(302, `${base(VERIFY)}/login`);
    res.type("html").send(ask());
  });
  r.post(`${base(VERIFY)}/verify`, urlencoded({ extended: false }), (req, res) => {
    const username = ticketUser(req.headers.cookie);
    if (!username) return res.redirect(302, `${base(VERIFY)}/login`);
    const digits = (v: string) => v.replace(/\D/g, "");
    if (digits(String((req.body as Record<string, string>).phone ?? "")) !== digits(ACCOUNT_PHONE)) {
      return res.type("html").send(ask("That phone number doesn't match the one on your account."));
    }
    tickets.delete(readCookie(req.headers.cookie, "step_ticket") ?? "");
    startSession(res, accounts, VERIFY, username);
    res.clearCookie("step_ticket", { path: "/" }).redirect(302, `${base(VERIFY)}/account`);
  });
  r.use(
    formCase(accounts, VERIFY, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(VERIFY, error)}`), {
      onSuccess: (_req, res, username) =>
        res
          .cookie("step_ticket", openTicket(username), { httpOnly: true, path: "/" })
          .redirect(302, `${base(VERIFY)}/verify`),
    }),
  );
  return r;
}

const DEVICE = "verify-device";
/** Sign-ins approved by the link mailed to the account's person (who is not us): their tickets. */
const approvedDevices = new Set<string>();

/**
 * A new device confirmed by a link the site mails to the account's own address (not ours): "Confirm it's
 * you … open the link in it, then come back". The page does not move by itself: once the link was opened
 * (here by the fixture, `POST /__fixture/device-approvals {username}`, as the person's click in their mail),
 * loading it again goes on to the account.
 */
function verifyDevice(accounts: Accounts): Router {
  const r = Router();
  r.post("/__fixture/device-approvals", urlencoded({ extended: false }), (req, res) => {
    const username = String((req.body as Record<string, string>).username ?? "");
    const open = [...tickets.entries()].filter(([, user]) => user === username).map(([ticket]) => ticket);
    for (const ticket of open) approvedDevices.add(ticket);
    res.json({ approved: open.length });
  });
  r.get(`${base(DEVICE)}/confirm`, (req, res) => {
    const ticket = readCookie(req.headers.cookie, "step_ticket") ?? "";
    const username = tickets.get(ticket);
    if (!username) return res.redirect(302, `${base(DEVICE)}/login`);
    if (approvedDevices.delete(ticket)) {
      tickets.delete(ticket);
      startSession(res, accounts, DEVICE, username);
      return res.clearCookie("step_ticket", { path: "/" }).redirect(302, `${base(DEVICE)}/account`);
    }
    res.type("html").send(
      page(
        "Confirm it's you",
        `<h1>Confirm it's you</h1>
<p>We sent an email to the address on your account. Open the link in it on any device to approve this new device, then come back to this page.</p>
<p><a href="${base(DEVICE)}/confirm">I've opened the link</a></p>`,
      ),
    );
  });
  r.use(
    formCase(accounts, DEVICE, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(DEVICE, error)}`), {
      onSuccess: (_req, res, username) =>
        res
          .cookie("step_ticket", openTicket(username), { httpOnly: true, path: "/" })
          .redirect(302, `${base(DEVICE)}/confirm`),
    }),
  );
  return r;
}

const TERMS = "terms-update";
/** Who accepted the updated terms (the accounts of this case that may use it). */
const acceptedTerms = new Set<string>();

/**
 * Updated terms after the right password: the site starts the session at once, but holds the account until
 * they are accepted: every page of it leads to the terms, which show the account's "Sign out" beside
 * "Accept and continue" (with its required "I agree" box) and "Decline". Declining signs out, back on the
 * login form with the site's words.
 */
function termsUpdate(accounts: Accounts): Router {
  const r = Router();
  const userOf = (cookie: string | undefined) => accounts.sessionUser(readCookie(cookie, sessionCookie(TERMS)));
  r.get(`${base(TERMS)}/terms`, (req, res) => {
    if (!userOf(req.headers.cookie)) return res.redirect(302, `${base(TERMS)}/login`);
    res.type("html").send(
      page(
        "Updated terms",
        `<nav><a href="${base(TERMS)}/logout">Sign out</a></nav>
<h1>We've updated our Terms of Service</h1>
<p>Review and accept the updated terms to continue using Acme. <a href="${base(TERMS)}/terms-text">Read the Terms of Service</a></p>
<form method="post" action="${base(TERMS)}/terms">
  <label><input type="checkbox" name="agree" value="yes" required> I have read and agree to the Terms of Service</label>
  <button type="submit" name="answer" value="accept">Accept and continue</button>
</form>
<form method="post" action="${base(TERMS)}/terms"><button type="submit" name="answer" value="decline">Decline</button></form>`,
      ),
    );
  });
  r.post(`${base(TERMS)}/terms`, urlencoded({ extended: false }), (req, res) => {
    const username = userOf(req.headers.cookie);
    if (!username) return res.redirect(302, `${base(TERMS)}/login`);
    const body = req.body as Record<string, string>;
    if (body.answer === "accept" && body.agree === "yes") {
      acceptedTerms.add(username);
      return res.redirect(302, `${base(TERMS)}/account`);
    }
    res.clearCookie(sessionCookie(TERMS), { path: "/" }).redirect(302, `${base(TERMS)}/login?declined=1`);
  });
  // The account is held until the terms are accepted.
  r.get(`${base(TERMS)}/account`, (req, res, next) => {
    const user = userOf(req.headers.cookie);
    if (user && !acceptedTerms.has(user)) return res.redirect(302, `${base(TERMS)}/terms`);
    next();
  });
  r.use(
    formCase(accounts, TERMS, (error, req) =>
      page(
        "Sign in",
        `<h1>Sign in</h1>${plainForm(TERMS, error ?? (req?.query.declined ? "You need to accept the updated terms to use Acme. You have been signed out." : undefined))}`,
      ),
    ),
  );
  return r;
}

export const securityQuestionCase = defineCase({
  router: ({ accounts }) => securityQuestion(accounts),
  cases: [mfaRequired(QUESTION)],
});

// The session cookie of terms-update comes before the terms: it leads only to them, and no person was there to accept.
export const personStepCases = defineCase({
  router: ({ accounts }) => [
    accountChooser(accounts),
    verifyIdentity(accounts),
    verifyDevice(accounts),
    termsUpdate(accounts),
  ],
  cases: [VERIFY, DEVICE, TERMS].map(mfaRequired),
});
