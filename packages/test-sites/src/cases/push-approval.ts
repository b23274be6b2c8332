import { randomBytes } from "node:crypto";
import { Router } from "express";
import { type Accounts, page, readCookie } from "../accounts";
import { base, formCase, plainForm, startSession } from "./kit";
import { defineCase } from "./login-case";

const NAME = "push-approval";

/**
 * A push approval, as Duo, Okta Verify or Microsoft Authenticator ask for one: after the right password the
 * site sends a notification to the user's phone and waits; its page asks the site every second whether the
 * phone approved, then goes on to the account by itself. Only a person with the phone can approve: here the
 * phone is the fixture (`POST /__fixture/push-approvals {username}`, `Accounts.approvePush`).
 */
function pushApproval(accounts: Accounts): Router {
  const r = Router();
  const ticketOf = (cookie?: string) => readCookie(cookie, "push_ticket") ?? "";
  r.get(`${base(NAME)}/approve`, (req, res) => {
    if (!accounts.pushOf(ticketOf(req.headers.cookie))) return res.redirect(302, `${base(NAME)}/login`);
    res.type("html").send(
      page(
        "Approve the sign-in",
        `<h1>Approve the sign-in on your phone</h1><p>We sent a notification to your phone. Open the Acme app and tap <b>Approve</b> to finish signing in.</p>
<p role="status">Waiting for approval…</p><p><a href="${base(NAME)}/login">Use another method</a></p>`,
        // Asked once more only after an answer, and never again once approved: a second push-done, sent while the
        // first was on its way on a slow machine, found the push used and took the page back to the login form.
        `const ask = async () => { const r = await fetch("${base(NAME)}/push-status").catch(() => null); if (r && (await r.json()).approved) location.href = "${base(NAME)}/push-done"; else setTimeout(ask, 1000); };
setTimeout(ask, 1000);`,
      ),
    );
  });
  r.get(`${base(NAME)}/push-status`, (req, res) => {
    res.json({ approved: accounts.pushOf(ticketOf(req.headers.cookie))?.approved === true });
  });
  r.get(`${base(NAME)}/push-done`, (req, res) => {
    const push = accounts.pushOf(ticketOf(req.headers.cookie));
    if (!push?.approved) return res.redirect(302, `${base(NAME)}/approve`);
    accounts.endPush(ticketOf(req.headers.cookie));
    startSession(res, accounts, NAME, push.username);
    res.clearCookie("push_ticket", { path: "/" }).redirect(302, `${base(NAME)}/account`);
  });
  r.use(
    formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
      onSuccess: (_req, res, username) => {
        const ticket = randomBytes(16).toString("hex");
        accounts.sendPush(ticket, username);
        res.cookie("push_ticket", ticket, { httpOnly: true, path: "/" }).redirect(302, `${base(NAME)}/approve`);
      },
    }),
  );
  return r;
}

export const pushApprovalCase = defineCase({ router: ({ accounts }) => pushApproval(accounts) });
