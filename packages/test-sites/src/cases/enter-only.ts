import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, jsonLoginApi, POST_LOGIN_SCRIPT } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "enter-only";

/** No submit control at all: the app listens for Enter in the password field. */
function enterOnly(accounts: Accounts): Router {
  const r = jsonLoginApi(accounts, NAME);
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(
      page(
        "Terminal",
        `<h1>Terminal login</h1><p>Press Enter to sign in.</p><div id="err" class="error" role="alert"></div>
<input id="u" placeholder="Username" autocomplete="username"> <input id="p" type="password" placeholder="Password" autocomplete="current-password">`,
        `${POST_LOGIN_SCRIPT(NAME)}
document.getElementById("p").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") postLogin(document.getElementById("u").value, ev.target.value, (m) => { document.getElementById("err").textContent = m; });
});`,
      ),
    );
  });
  return r;
}

export const enterOnlyCase = defineCase({
  router: ({ accounts }) => enterOnly(accounts),
  cases: [standard(NAME)],
});
