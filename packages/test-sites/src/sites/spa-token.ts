import { Router } from "express";
import { type Accounts, page } from "../accounts";
import { tokenApi } from "./token-api";

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
  r.use(tokenApi(accounts, "spa", "Incorrect email or password"));
  return r;
}
