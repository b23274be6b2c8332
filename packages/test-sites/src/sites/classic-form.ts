import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";

const COOKIE = "classic_sid";

export function loginPage(error?: string, username = "", action = "/classic/login"): string {
  return page(
    "Sign in — Classic",
    `<h1>Sign in</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="${action}">
  <label>Username <input name="username" autocomplete="username" value="${escapeHtml(username)}"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  <button type="submit">Sign in</button>
</form>`,
  );
}

/** Classic server-rendered form: POST, 302 redirect, HttpOnly session cookie; wrong password re-renders with an error. */
export function classicForm(accounts: Accounts): Router {
  const r = Router();
  r.get("/classic/login", (_req, res) => {
    res.type("html").send(loginPage());
  });
  r.post("/classic/login", urlencoded({ extended: false }), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt("classic", username, password)) {
      res.status(200).type("html").send(loginPage("Invalid username or password.", username));
      return;
    }
    res.cookie(COOKIE, accounts.openSession(username), {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: 3_600_000,
    });
    res.cookie("classic_theme", "light", { path: "/", sameSite: "lax" });
    res.redirect(302, "/classic/account");
  });
  r.get("/classic/account", (req, res) => {
    const user = accounts.sessionUser(readCookie(req.headers.cookie, COOKIE));
    if (!user) {
      res.redirect(302, "/classic/login");
      return;
    }
    res
      .type("html")
      .send(
        page(
          "Account",
          `<div class="alert" role="status">Your trial ends in 3 days.</div><h1>Welcome, ${escapeHtml(user)}</h1><a href="/classic/logout">Sign out</a>`,
        ),
      );
  });
  r.get("/classic/logout", (req, res) => {
    accounts.endSession(readCookie(req.headers.cookie, COOKIE));
    res.clearCookie(COOKIE, { path: "/" }).redirect(302, "/classic/login");
  });
  return r;
}
