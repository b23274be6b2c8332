import { Router, type Request, type Response } from "express";
import { EmailTakenError, type Database } from "@authsvc/db";
import { html } from "../html/html";
import { csrfField } from "../html/layout";
import { field, localPath, query } from "../http/form";
import { sendPage } from "../http/page";
import type { LoginRateLimit } from "./login-rate-limit";
import {
  hashPassword,
  passwordProblem,
  PASSWORD_MAX,
  PASSWORD_MIN,
  verifyAgainstDecoy,
  verifyPassword,
} from "./password";
import { endSession, requireUser, sessionOf, startSession, type SessionSettings } from "./signed-in";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;

function credentialsForm(
  res: Response,
  action: string,
  button: string,
  next: string | null,
  email = "",
  newPassword = false,
) {
  return html`<form method="post" action="${action}" class="stack">
  ${csrfField(res.locals.csrfToken as string)}
  ${next ? html`<input type="hidden" name="next" value="${next}">` : ""}
  <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${email}">
  <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="${newPassword ? "new-password" : "current-password"}" required ${newPassword ? html`minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}"` : ""}>
  <button type="submit">${button}</button>
</form>`;
}

function signInPage(res: Response, next: string | null, problem?: { status: number; message: string }, email = "") {
  const other = `/signup${next ? `?next=${encodeURIComponent(next)}` : ""}`;
  sendPage(
    res,
    "Sign in",
    html`${problem ? html`<p class="error" role="alert">${problem.message}</p>` : ""}
${credentialsForm(res, "/signin", "Sign in", next, email)}
<p class="muted">No account yet? <a href="${other}">Create an account</a></p>`,
    { status: problem?.status },
  );
}

function signUpPage(res: Response, next: string | null, problem?: { status: number; message: string }, email = "") {
  const other = `/signin${next ? `?next=${encodeURIComponent(next)}` : ""}`;
  sendPage(
    res,
    "Create account",
    html`${problem ? html`<p class="error" role="alert">${problem.message}</p>` : ""}
${credentialsForm(res, "/signup", "Create account", next, email, true)}
<p class="muted">At least ${PASSWORD_MIN} characters. Already have an account? <a href="${other}">Sign in</a></p>`,
    { status: problem?.status },
  );
}

const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? "unknown";

/** Sign up, sign in, sign out and password change: the dashboard's own accounts. */
export function accountRoutes(db: Database, settings: SessionSettings, limiter: LoginRateLimit): Router {
  const r = Router();

  r.get("/signin", (req, res) => {
    const next = localPath(query(req, "next"));
    if (sessionOf(res)) return res.redirect(303, next ?? "/");
    signInPage(res, next);
  });

  r.post("/signin", async (req, res) => {
    const email = field(req, "email", { max: 254 }).toLowerCase();
    const password = field(req, "password", { raw: true, max: PASSWORD_MAX });
    const next = localPath(field(req, "next"));
    const ip = clientIp(req);
    const wait = await limiter.retryAfter(email, ip);
    if (wait > 0) {
      res.setHeader("Retry-After", String(wait));
      return signInPage(
        res,
        next,
        {
          status: 429,
          message: `Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? "s" : ""}.`,
        },
        email,
      );
    }
    const user = email && password ? await db.dashboardUsers.findForSignIn(email) : null;
    const ok = user ? await verifyPassword(password, user.passwordHash) : await verifyAgainstDecoy(password);
    if (!user || !ok) {
      await limiter.recordFailure(email, ip);
      return signInPage(res, next, { status: 401, message: "Wrong email or password." }, email);
    }
    await startSession(db, settings, res, user.id);
    res.redirect(303, next ?? "/");
  });

  r.get("/signup", (req, res) => signUpPage(res, localPath(query(req, "next"))));

  r.post("/signup", async (req, res) => {
    const email = field(req, "email", { max: 254 }).toLowerCase();
    const password = field(req, "password", { raw: true, max: PASSWORD_MAX + 1 });
    const next = localPath(field(req, "next"));
    if (!EMAIL.test(email))
      return signUpPage(res, next, { status: 400, message: "Enter a valid email address." }, email);
    const problem = passwordProblem(password);
    if (problem) return signUpPage(res, next, { status: 400, message: problem }, email);
    try {
      const user = await db.dashboardUsers.create(email, await hashPassword(password));
      await startSession(db, settings, res, user.id);
    } catch (err) {
      if (err instanceof EmailTakenError)
        return signUpPage(
          res,
          next,
          { status: 409, message: "An account with this email already exists. Sign in instead." },
          email,
        );
      throw err;
    }
    res.redirect(303, next ?? "/");
  });

  r.post("/signout", async (_req, res) => {
    await endSession(db, settings, res);
    res.redirect(303, "/signin");
  });

  const accountPage = (res: Response, message?: { ok: boolean; text: string }, status = 200) =>
    sendPage(
      res,
      "Account",
      html`${message ? html`<p class="${message.ok ? "notice" : "error"}" role="${message.ok ? "status" : "alert"}">${message.text}</p>` : ""}
<p>Signed in as <strong>${sessionOf(res)!.user.email}</strong>.</p>
<h2>Change password</h2>
<form method="post" action="/account/password" class="stack">
  ${csrfField(res.locals.csrfToken as string)}
  <label for="current">Current password</label><input id="current" name="current" type="password" autocomplete="current-password" required>
  <label for="new">New password</label><input id="new" name="new" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}">
  <button type="submit">Change password</button>
</form>
<p class="muted">Changing the password signs out every other browser.</p>`,
      { status },
    );

  r.get("/account", requireUser, (_req, res) => accountPage(res));

  r.post("/account/password", requireUser, async (req, res) => {
    const user = sessionOf(res)!.user;
    const current = field(req, "current", { raw: true, max: PASSWORD_MAX });
    const fresh = field(req, "new", { raw: true, max: PASSWORD_MAX + 1 });
    const stored = await db.dashboardUsers.passwordHashOf(user.id);
    if (!stored || !(await verifyPassword(current, stored)))
      return accountPage(res, { ok: false, text: "The current password is wrong." }, 400);
    const problem = passwordProblem(fresh);
    if (problem) return accountPage(res, { ok: false, text: problem }, 400);
    await db.dashboardUsers.setPasswordHash(user.id, await hashPassword(fresh));
    // Every other browser is signed out, and this one gets a new session (and form token).
    await db.dashboardSessions.removeAllOf(user.id, sessionOf(res)!.id);
    await startSession(db, settings, res, user.id);
    accountPage(res, { ok: true, text: "Password changed. Other browsers were signed out." });
  });

  return r;
}
