import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, jsonLoginApi, POST_LOGIN_SCRIPT } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "reveal-password";

// The password field exists from the start but stays hidden until "Continue" (as many identity providers do).
const SCRIPT = `${POST_LOGIN_SCRIPT(NAME)}
const form = document.getElementById("f"), pw = document.getElementById("pw-row"), err = document.getElementById("err");
let step = "identifier";
form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (step === "identifier") {
    if (!form.email.value) return;
    step = "password";
    setTimeout(() => { pw.hidden = false; document.getElementById("go").textContent = "Sign in"; form.password.focus(); }, 300);
    return;
  }
  postLogin(form.email.value, form.password.value, (m) => { err.textContent = m; });
});`;

/** Username first; the password field is revealed on the same page after "Continue". */
function revealPassword(accounts: Accounts): Router {
  const r = jsonLoginApi(accounts, NAME);
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(
      page(
        "Sign in",
        `<h1>Sign in</h1><div id="err" role="alert" class="error"></div>
<form id="f">
  <label>Email <input name="email" type="email" autocomplete="username"></label>
  <div id="pw-row" hidden><label>Password <input name="password" type="password" autocomplete="current-password"></label></div>
  <button id="go" type="submit">Continue</button>
</form>`,
        SCRIPT,
      ),
    );
  });
  return r;
}

export const revealPasswordCase = defineCase({
  router: ({ accounts }) => revealPassword(accounts),
  cases: [standard(NAME)],
});
