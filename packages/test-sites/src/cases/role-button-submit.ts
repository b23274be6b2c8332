import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, jsonLoginApi, POST_LOGIN_SCRIPT } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "role-button-submit";

/** No form element and no button: the fields sit in divs and "Sign in" is a div with role=button. */
function roleButtonSubmit(accounts: Accounts): Router {
  const r = jsonLoginApi(accounts, NAME);
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(
      page(
        "Sign in",
        `<h1>Sign in</h1><div id="err" class="error" role="alert"></div>
<div class="field"><label for="u">Username</label><input id="u"></div>
<div class="field"><label for="p">Password</label><input id="p" type="password"></div>
<div class="actions"><div role="button" tabindex="0" id="go" style="display:inline-block;padding:.5rem;background:#06c;color:#fff">Sign in</div>
<a href="#" id="forgot">Forgot password?</a></div>`,
        `${POST_LOGIN_SCRIPT(NAME)}
document.getElementById("go").addEventListener("click", () =>
  postLogin(document.getElementById("u").value, document.getElementById("p").value, (m) => { document.getElementById("err").textContent = m; }));`,
      ),
    );
  });
  return r;
}

export const roleButtonSubmitCase = defineCase({
  router: ({ accounts }) => roleButtonSubmit(accounts),
  cases: [standard(NAME)],
});
