import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, jsonLoginApi } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "alert-dialog";

/** An old-style page that answers a wrong password with a JavaScript alert() and nothing else. */
function alertDialog(accounts: Accounts): Router {
  const r = jsonLoginApi(accounts, NAME);
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(
      page(
        "Sign in",
        `<h1>Sign in</h1>
<form id="f"><label>Username <input name="u" autocomplete="username"></label>
<label>Password <input name="p" type="password" autocomplete="current-password"></label><button type="submit">Sign in</button></form>`,
        `document.getElementById("f").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const res = await fetch("${base(NAME)}/api/login", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: f.u.value, password: f.p.value }) });
  if (res.ok) location.href = "${base(NAME)}/account";
  else alert((await res.json()).error);
});`,
      ),
    );
  });
  return r;
}

export const alertDialogCase = defineCase({
  router: ({ accounts }) => alertDialog(accounts),
  cases: [standard(NAME)],
});
