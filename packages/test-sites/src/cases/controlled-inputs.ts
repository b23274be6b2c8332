import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, jsonLoginApi, POST_LOGIN_SCRIPT } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "controlled-inputs";

// Like a React app with controlled inputs: its state changes only on trusted key and input events, and it
// sends its state, not what the DOM holds. A script that assigns `.value` sends empty fields.
const SCRIPT = `${POST_LOGIN_SCRIPT(NAME)}
const state = { username: "", password: "" }, keys = { username: 0, password: 0 };
for (const name of ["username", "password"]) {
  const input = document.querySelector('[data-field="' + name + '"]');
  input.addEventListener("keydown", (ev) => { if (ev.isTrusted) keys[name]++; });
  input.addEventListener("input", (ev) => { if (ev.isTrusted) state[name] = ev.target.value; });
}
document.getElementById("f").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const err = document.getElementById("err");
  if (keys.username < state.username.length || keys.password < state.password.length) { err.textContent = "Please type your details."; return; }
  postLogin(state.username, state.password, (m) => { err.textContent = m; });
});`;

/** Inputs whose value only counts when it was typed: key events, not assignments. */
function controlledInputs(accounts: Accounts): Router {
  const r = jsonLoginApi(accounts, NAME);
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(
      page(
        "Sign in",
        `<h1>Sign in</h1><div id="err" class="error" role="alert"></div>
<form id="f"><label>Username <input data-field="username" name="login" autocomplete="username"></label>
<label>Password <input data-field="password" name="secret" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form>`,
        SCRIPT,
      ),
    );
  });
  return r;
}

export const controlledInputsCase = defineCase({
  router: ({ accounts }) => controlledInputs(accounts),
  cases: [standard(NAME)],
});
