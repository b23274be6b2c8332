import { json, Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { accountRoute, base, sessionCookie, startSession } from "./kit";
import { at, defineCase, standard } from "./login-case";

/**
 * Signed-in pages whose evidence is weak or easy to miss, as real applications draw them; each is proven
 * only by comparing with a visitor who has no session, or by a sign-out control of an unusual shape.
 */

const WRONG = "Error: The password you entered for that username is incorrect.";

/** A CMS's login page (WordPress's fields), its POST signing in and sending the browser to `then`. */
function cmsLogin(
  r: Router,
  accounts: Accounts,
  name: string,
  then: (body: Record<string, string>) => string,
): (error?: string, to?: string) => string {
  const form = (error?: string, to = "") =>
    page(
      "Log In",
      `<h1>Log In</h1>${error ? `<div id="login_error">${escapeHtml(error)}</div>` : ""}<form method="post" action="${base(name)}/login">
<label>Username or Email Address <input name="log" autocomplete="username"></label>
<label>Password <input name="pwd" type="password" autocomplete="current-password"></label>
${to ? `<input type="hidden" name="redirect_to" value="${escapeHtml(to)}">` : ""}<input type="submit" value="Log In"></form>`,
    );
  r.get(`${base(name)}/login`, (req, res) =>
    res.type("html").send(form(undefined, typeof req.query.redirect_to === "string" ? req.query.redirect_to : "")),
  );
  r.post(`${base(name)}/login`, urlencoded({ extended: false }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    if (accounts.check(name, body.log ?? "", body.pwd ?? "") !== "ok") return res.type("html").send(form(WRONG));
    startSession(res, accounts, name, body.log!);
    res.redirect(302, then(body));
  });
  return form;
}

/**
 * A login page that shows its form to everyone, signed in or not (WordPress's wp-login.php): the caller gives
 * the dashboard's address, which sends a visitor to the login page and shows the session a dashboard whose
 * sign-out sits in a menu that opens on hover (hidden until then), with no name on it. The second tab at the
 * login page proves nothing; the dashboard, beside a visitor, does.
 */
function formForEveryone(accounts: Accounts): Router {
  const name = "form-for-everyone";
  const r = Router();
  r.get(`${base(name)}/admin/`, (req, res) => {
    if (!accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(name))))
      return res.redirect(302, `${base(name)}/login?redirect_to=${encodeURIComponent(`${base(name)}/admin/`)}`);
    res.type("html").send(
      page(
        "Dashboard",
        `<style>.sub{display:none}.menupop:hover .sub{display:block}</style><div id="adminbar"><ul><li class="menupop">My Account<ul class="sub"><li><a href="${base(name)}/logout">Log Out</a></li></ul></li></ul></div>
<h1>Dashboard</h1><h2>At a glance</h2><p>3 Posts · 1 Page · 2 Comments</p>`,
      ),
    );
  });
  cmsLogin(r, accounts, name, (body) =>
    body.redirect_to?.startsWith(base(name)) ? body.redirect_to : `${base(name)}/admin/`,
  );
  accountRoute(r, accounts, name);
  return r;
}

/**
 * A single-page application at its root, with a modal login over it (a "Log in" button opens it), a bearer
 * token in localStorage and no cookie, and a long poll it keeps open once signed in (as apps that hold a
 * WebSocket or long-poll do). The signed-in app shows its projects, its account menu closed (no sign-out
 * shown, no name). Opened again, the root shows the session the app and a visitor the "Log in" button.
 */
function appRootToken(accounts: Accounts): Router {
  const name = "app-root-token";
  const r = Router();
  const app = `
const root = document.getElementById("app");
function showApp() {
  root.innerHTML = '<nav><button aria-haspopup="menu" aria-expanded="false">☰</button><ul role="menu" hidden><li><a role="menuitem" href="#" id="out">Log out</a></li></ul></nav><h1>Projects</h1><ul><li>Website redesign</li><li>Q3 report</li></ul>';
  const token = localStorage.getItem("art_token");
  (async function poll() { for (;;) { const r = await fetch("${base(name)}/api/poll", { headers: { authorization: "Bearer " + token } }).catch(() => null); if (!r || r.status === 401) return; } })();
}
function showLanding(error) {
  root.innerHTML = '<header><b>Acme Boards</b> <button id="open">Log in</button></header><h1>Plan your work</h1>' +
    '<dialog id="dlg"><div id="err" role="alert" class="error"></div><form id="f"><label>Email <input id="u" type="email" autocomplete="username"></label>' +
    '<label>Password <input id="p" type="password" autocomplete="current-password"></label><button type="submit">Log in</button></form></dialog>';
  const dlg = document.getElementById("dlg");
  document.getElementById("open").onclick = () => dlg.showModal();
  document.getElementById("f").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const res = await fetch("${base(name)}/api/login", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: document.getElementById("u").value, password: document.getElementById("p").value }) });
    const body = await res.json();
    if (!res.ok) { document.getElementById("err").textContent = body.error; return; }
    localStorage.setItem("art_token", body.token);
    dlg.close();
    showApp();
  });
}
(async () => {
  const token = localStorage.getItem("art_token");
  if (token) {
    const res = await fetch("${base(name)}/api/me", { headers: { authorization: "Bearer " + token } });
    if (res.ok) return showApp();
  }
  showLanding();
})();`;
  r.get(`${base(name)}/`, (_req, res) =>
    res.type("html").send(page("Acme Boards", `<div id="app"><p>Loading…</p></div>`, app)),
  );
  r.post(`${base(name)}/api/login`, json(), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (accounts.check(name, String(username), String(password)) !== "ok")
      return res.status(401).json({ error: "Incorrect email or password" });
    res.json({ token: accounts.openSession(String(username)) });
  });
  const userOf = (auth?: string) => accounts.sessionUser(auth?.replace(/^Bearer /, ""));
  r.get(`${base(name)}/api/me`, (req, res) =>
    userOf(req.headers.authorization) ? res.json({ ok: true }) : res.status(401).json({ error: "not signed in" }),
  );
  // Held open as a long poll: answered after 20 s, or at once when the token is not a session's.
  r.get(`${base(name)}/api/poll`, (req, res) => {
    if (!userOf(req.headers.authorization)) return res.status(401).end();
    const timer = setTimeout(() => res.status(204).end(), 20_000);
    res.on("close", () => clearTimeout(timer));
  });
  return r;
}

/**
 * A database admin's page (Adminer's shape): its address shows the login form to any visitor whose URL names
 * no server, signed in or not; signed in, the page the login leads to carries its sign-out as `<input
 * type="submit" name="logout" value="Logout">` in a form posting to the same page, no link, no name shown.
 */
function logoutInput(accounts: Accounts): Router {
  const name = "logout-input";
  const r = Router();
  const form = (error?: string) =>
    page(
      "Login - Adminer",
      `<h2>Login</h2>${error ? `<div class="error">${escapeHtml(error)}</div>` : ""}<form action="" method="post"><table>
<tr><th>Server<td><input name="auth[server]" value="localhost" title="hostname[:port]">
<tr><th>Username<td><input name="auth[username]" id="username" autocomplete="username">
<tr><th>Password<td><input type="password" name="auth[password]" autocomplete="current-password">
</table><p><input type="submit" value="Login"></form>`,
    );
  r.get(`${base(name)}/`, (req, res) => {
    const user = accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(name)));
    if (!user || !req.query.username) return res.type("html").send(form());
    res
      .type("html")
      .send(
        page(
          "Select database - Adminer",
          `<form action="" method="post"><p class="logout"><input type="submit" name="logout" value="Logout" id="logout"></p></form><h2>Select database</h2><p><a href="?server=localhost&amp;db=app">app</a></p>`,
        ),
      );
  });
  r.post(`${base(name)}/`, urlencoded({ extended: true }), (req, res) => {
    const body = (req.body ?? {}) as { auth?: Record<string, string>; logout?: string };
    if (body.logout !== undefined) {
      accounts.endSession(readCookie(req.headers.cookie, sessionCookie(name)));
      return res.clearCookie(sessionCookie(name), { path: "/" }).redirect(302, `${base(name)}/`);
    }
    const auth = body.auth ?? {};
    if (accounts.check(name, auth.username ?? "", auth.password ?? "") !== "ok")
      return res.type("html").send(form("Invalid credentials."));
    startSession(res, accounts, name, auth.username!);
    res.redirect(
      302,
      `${base(name)}/?server=${encodeURIComponent(auth.server ?? "")}&username=${encodeURIComponent(auth.username!)}`,
    );
  });
  accountRoute(r, accounts, name);
  return r;
}

/**
 * A login that lands on the account's profile (WordPress sends a new subscriber to profile.php): a form of
 * many fields, its email among them, a disabled username, a "Sessions" row in an `aria-live` region around a
 * "Log Out Everywhere Else" button ("You are only logged in at this location."), the sign-out in a menu that
 * opens on hover, no name shown. Signed in: the browser went on to a page of its own with a new session cookie.
 */
function profileLanding(accounts: Accounts): Router {
  const name = "profile-landing";
  const r = Router();
  cmsLogin(r, accounts, name, () => `${base(name)}/profile`);
  r.get(`${base(name)}/profile`, (req, res) => {
    if (!accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(name))))
      return res.redirect(302, `${base(name)}/login`);
    res.type("html").send(
      page(
        "Profile",
        `<style>.sub{display:none}.menupop:hover .sub{display:block}</style><div id="adminbar"><ul><li class="menupop">My Account<ul class="sub"><li><a href="${base(name)}/logout">Log Out</a></li></ul></li></ul></div>
<h1>Profile</h1><form id="your-profile" method="post" action="${base(name)}/profile"><table>
<tr><th><label for="user_login">Username</label></th><td><input type="text" name="user_login" id="user_login" value="member" disabled> <span class="description">Usernames cannot be changed.</span></td></tr>
<tr><th><label for="first_name">First Name</label></th><td><input type="text" name="first_name" id="first_name"></td></tr>
<tr><th><label for="last_name">Last Name</label></th><td><input type="text" name="last_name" id="last_name"></td></tr>
<tr><th><label for="nickname">Nickname (required)</label></th><td><input type="text" name="nickname" id="nickname" value="member"></td></tr>
<tr><th><label for="email">Email (required)</label></th><td><input type="email" name="email" id="email" value="member@example.test"></td></tr>
<tr><th><label for="url">Website</label></th><td><input type="url" name="url" id="url"></td></tr>
<tr><th><label for="description">Biographical Info</label></th><td><textarea name="description" id="description"></textarea></td></tr>
<tr class="user-sessions-wrap"><th>Sessions</th><td aria-live="assertive"><div class="destroy-sessions"><button type="button" disabled class="button">Log Out Everywhere Else</button></div><p class="description">You are only logged in at this location.</p></td></tr>
</table><p class="submit"><input type="submit" value="Update Profile" class="button button-primary"></p></form>`,
      ),
    );
  });
  accountRoute(r, accounts, name);
  return r;
}

// Signed-in pages proven beside a visitor without the session, or by a sign-out of an unusual shape.
export const secondLookCases = defineCase({
  router: ({ accounts }) => [
    formForEveryone(accounts),
    appRootToken(accounts),
    logoutInput(accounts),
    profileLanding(accounts),
  ],
  cases: [
    standard("form-for-everyone", {
      url: at("/cases/form-for-everyone/admin/"),
      refusal: "The password you entered for that username is incorrect.",
    }),
    standard("app-root-token", {
      url: at("/cases/app-root-token/"),
      session: { storageKey: "art_token", storageHost: "127.0.0.1" },
      account: undefined,
      refusal: "Incorrect email or password",
    }),
    standard("logout-input", { url: at("/cases/logout-input/"), refusal: "Invalid credentials." }),
    standard("profile-landing", { refusal: "The password you entered for that username is incorrect." }),
  ],
});
