import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, jsonLoginApi, POST_LOGIN_SCRIPT } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "shadow-root";

// A web component whose fields live in an open shadow root, inside another component's shadow root.
const SCRIPT = `${POST_LOGIN_SCRIPT(NAME)}
class LoginFields extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = '<p id="err" role="alert" style="color:#b00020"></p>' +
      '<label>Username <input id="user" autocomplete="username"></label>' +
      '<label>Password <input id="pass" type="password" autocomplete="current-password"></label>' +
      '<button id="go">Sign in</button>';
    root.getElementById("go").addEventListener("click", () =>
      postLogin(root.getElementById("user").value, root.getElementById("pass").value, (m) => { root.getElementById("err").textContent = m; }));
  }
}
class LoginCard extends HTMLElement {
  connectedCallback() { this.attachShadow({ mode: "open" }).innerHTML = "<h1>Sign in</h1><login-fields></login-fields>"; }
}
customElements.define("login-fields", LoginFields);
customElements.define("login-card", LoginCard);`;

/** Username and password inside nested open shadow roots, submitted by a button outside any form. */
function shadowRoot(accounts: Accounts): Router {
  const r = jsonLoginApi(accounts, NAME);
  r.get(`${base(NAME)}/login`, (_req, res) => {
    res.type("html").send(page("Sign in", "<login-card></login-card>", SCRIPT));
  });
  return r;
}

export const shadowRootCase = defineCase({
  router: ({ accounts }) => shadowRoot(accounts),
  cases: [standard(NAME)],
});
