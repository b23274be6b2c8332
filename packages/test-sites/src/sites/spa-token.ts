import { Router, json } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";

// The form is drawn by JavaScript after a delay, posts JSON with fetch and keeps the token in localStorage.
const APP = `
const root = document.getElementById("app");
function showAccount(name) {
  root.innerHTML = '<h1>Dashboard</h1><p>Signed in as <b id="who"></b></p><button id="logout">Log out</button>';
  document.getElementById("who").textContent = name;
  document.getElementById("logout").onclick = () => { localStorage.removeItem("spa_token"); location.reload(); };
}
function showLogin() {
  root.innerHTML = '<h1>Log in</h1><div id="err" role="alert" class="error"></div>' +
    '<form id="f"><label>Email or username <input id="u" autocomplete="username"></label>' +
    '<label>Password <input id="p" type="password" autocomplete="current-password"></label>' +
    '<button type="submit">Log in</button></form>';
  document.getElementById("f").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const res = await fetch("/spa/api/login", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: document.getElementById("u").value, password: document.getElementById("p").value }) });
    const body = await res.json();
    if (!res.ok) { document.getElementById("err").textContent = body.error; return; }
    localStorage.setItem("spa_token", body.token);
    showAccount(body.user);
  });
}
const token = localStorage.getItem("spa_token");
setTimeout(async () => {
  if (token) {
    const res = await fetch("/spa/api/me", { headers: { authorization: "Bearer " + token } });
    if (res.ok) return showAccount((await res.json()).user);
  }
  showLogin();
}, 400);
`;

/** A single-page app: JSON login API, bearer token in localStorage, no cookies. */
export function spaToken(accounts: Accounts): Router {
  const r = Router();
  r.get("/spa/login", (_req, res) => {
    res.type("html").send(page("Acme App", `<div id="app"><p>Loading…</p></div>`, APP));
  });
  r.post("/spa/api/login", json(), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt("spa", String(username), String(password))) {
      res.status(401).json({ error: "Incorrect email or password" });
      return;
    }
    res.json({ token: accounts.openSession(String(username)), user: escapeHtml(String(username)) });
  });
  r.get("/spa/api/me", (req, res) => {
    const user = accounts.sessionUser(req.headers.authorization?.replace(/^Bearer /, ""));
    if (!user) {
      res.status(401).json({ error: "not signed in" });
      return;
    }
    res.json({ user });
  });
  return r;
}
