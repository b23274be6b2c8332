import { json, Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, startSession } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, REFUSALS, tooShort } from "./kit";
import type { SignupRegistry } from "./registry";

const NAME = "signup-hash";

// One page, routed by its hash: `#/login` (where the root sends a visitor), `#/signup`, `#/projects` once
// signed in; every view drawn by the script a moment after the route changes, as hash-routed apps do.
const APP = `
const root = document.getElementById("app");
const views = {
  "#/login": () => '<h1>Sign in</h1><form id="f"><label>Email <input id="e" type="email" autocomplete="username"></label><label>Password <input id="p" type="password" autocomplete="current-password"></label><button>Sign in</button></form><p>New here? <a href="#/signup">Create an account</a></p>',
  "#/signup": () => '<h1>Create your account</h1><div id="err" role="alert"></div><form id="s"><label>Email <input id="e" type="email" autocomplete="email"></label><label>Password <input id="p" type="password" autocomplete="new-password"></label><button>Create account</button></form><p>Have an account? <a href="#/login">Sign in</a></p>',
  "#/projects": () => '<nav><a href="#/login" id="out">Log out</a></nav><h1>Projects</h1>',
};
function route() {
  const view = views[location.hash];
  if (!view) { location.hash = "#/login"; return; }
  root.innerHTML = "<p>Loading…</p>";
  setTimeout(() => {
    root.innerHTML = view();
    const s = document.getElementById("s");
    if (s) s.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const res = await fetch("${base(NAME)}/api/signup", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: document.getElementById("e").value, password: document.getElementById("p").value }) });
      if (!res.ok) { document.getElementById("err").textContent = (await res.json()).error; return; }
      location.hash = "#/projects";
    });
  }, 300);
}
addEventListener("hashchange", route);
route();`;

/** A hash-routed single-page app's sign-up (`#/signup`): the site signs the new account in with a cookie. */
export function signupHash(accounts: Accounts, registry: SignupRegistry): Router {
  const r = Router();
  r.get(`${base(NAME)}/`, (_req, res) => res.type("html").send(page("Acme Projects", `<div id="app"></div>`, APP)));
  r.post(`${base(NAME)}/api/signup`, json(), (req, res) => {
    const body = fieldsOf(req);
    const [email, password] = [(body.email ?? "").trim(), body.password ?? ""];
    accounts.noteAttempt(NAME, email);
    const refused = firstRefusal([
      [!isEmail(email), REFUSALS.email],
      [password.length < 8, tooShort(8)],
      [registry.emailTaken(NAME, email), REFUSALS.emailTaken],
    ]);
    if (refused) return res.status(400).json({ error: refused });
    registry.create(NAME, { email }, password, true);
    startSession(res, accounts, NAME, email);
    res.status(201).json({ ok: true });
  });
  return r;
}
