import { Router, json } from "express";
import { type Accounts, page } from "../accounts";
import { base, startSession } from "../cases/kit";
import { fieldsOf, firstRefusal, isEmail, loginPage, REFUSALS, tooShort, loginOffer } from "./kit";
import type { SignupRegistry } from "./registry";

const NAME = "signup-instant";
const MIN_PASSWORD = 8;

const FORM = `<h1>Create your account</h1>
<form>
  <label>Email <input type="email" id="email" autocomplete="email"></label>
  <label>Username <input id="username" autocomplete="username"></label>
  <label>Password <input type="password" id="password" autocomplete="new-password"></label>
  <label>Repeat password <input type="password" id="confirm" autocomplete="new-password"></label>
  <button type="submit">Create account</button>
</form>`;

// The page is empty until its script draws the form, and the form only ever posts JSON.
const SCRIPT = `setTimeout(() => {
  const root = document.getElementById("root");
  root.innerHTML = ${JSON.stringify(FORM)};
  const form = root.querySelector("form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = (id) => document.getElementById(id).value;
    const res = await fetch("${base(NAME)}/api/signup", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: value("email"), username: value("username"), password: value("password"), confirm: value("confirm") }) });
    if (res.ok) { location.href = "${base(NAME)}/account"; return; }
    let alert = root.querySelector(".error");
    if (!alert) { alert = document.createElement("p"); alert.className = "error"; alert.setAttribute("role", "alert"); form.before(alert); }
    alert.textContent = (await res.json()).error;
  });
}, 600);`;

/** A script-drawn sign-up form posting JSON: no confirmation, signed in at once. */
export function signupInstant(accounts: Accounts, registry: SignupRegistry): Router {
  const r = Router();
  r.get(`${base(NAME)}/signup`, (_req, res) => {
    res.type("html").send(page("Create your account", `<div id="root"></div>${loginOffer(NAME)}`, SCRIPT));
  });
  r.post(`${base(NAME)}/api/signup`, json(), (req, res) => {
    const body = fieldsOf(req);
    const [email, username, password] = [(body.email ?? "").trim(), (body.username ?? "").trim(), body.password ?? ""];
    accounts.noteAttempt(NAME, email);
    const invalid = firstRefusal([
      [!email || !username || !password || !body.confirm, REFUSALS.missing],
      [!isEmail(email), REFUSALS.email],
      [
        !/^[a-z0-9_.-]{3,30}$/i.test(username),
        "Usernames may only contain letters, digits, dots, dashes and underscores.",
      ],
      [password.length < MIN_PASSWORD, tooShort(MIN_PASSWORD)],
      [password !== body.confirm, REFUSALS.mismatch],
    ]);
    if (invalid) return res.status(400).json({ error: invalid });
    const conflict = firstRefusal([
      [registry.emailTaken(NAME, email), REFUSALS.emailTaken],
      [registry.usernameTaken(username), REFUSALS.usernameTaken],
    ]);
    if (conflict) return res.status(409).json({ error: conflict });
    registry.create(NAME, { email, username }, password, true);
    startSession(res, accounts, NAME, email);
    res.status(201).json({ user: email });
  });
  r.use(loginPage(accounts, NAME));
  return r;
}
