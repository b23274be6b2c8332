import { randomBytes } from "node:crypto";
import { Router, json } from "express";
import { type Accounts, page } from "../accounts";
import { accountRoute, base, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "iframe-cross-origin";

/**
 * The login form is an embedded widget from another site (login.localhost): it checks the password with
 * its own API, posts a one-time code to the parent page, and the parent swaps it for its own session.
 */
function iframeCrossOrigin(accounts: Accounts): Router {
  const r = Router();
  const codes = new Map<string, string>();
  const widgetOrigin = (host: string) => `http://login.localhost:${host.split(":")[1]}`;
  r.get(`${base(NAME)}/login`, (req, res) => {
    const widget = widgetOrigin(req.headers.host ?? "");
    res.type("html").send(
      page(
        "Shop",
        `<h1>Sign in to the shop</h1>
<iframe id="widget" src="${widget}${base(NAME)}/widget?parent=${encodeURIComponent(`http://${req.headers.host}`)}" title="Sign in" style="width:26rem;height:16rem;border:0"></iframe>`,
        `addEventListener("message", async (ev) => {
  if (ev.origin !== ${JSON.stringify(widget)} || !ev.data || !ev.data.code) return;
  const res = await fetch("${base(NAME)}/exchange", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ code: ev.data.code }) });
  if (res.ok) location.href = "${base(NAME)}/account";
});`,
      ),
    );
  });
  r.get(`${base(NAME)}/widget`, (req, res) => {
    const parent = String(req.query.parent ?? "");
    res.type("html").send(
      page(
        "Sign in",
        `<div id="err" role="alert" class="error"></div>
<form id="f"><label>Email <input id="email" type="email" autocomplete="email"></label>
<label>Password <input id="pw" type="password" autocomplete="current-password"></label><button type="submit">Sign in</button></form>`,
        `document.getElementById("f").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await fetch("${base(NAME)}/widget/check", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: document.getElementById("email").value, password: document.getElementById("pw").value }) });
  const body = await res.json();
  if (!res.ok) { document.getElementById("err").textContent = body.error; return; }
  parent.postMessage({ code: body.code }, ${JSON.stringify(parent)});
});`,
      ),
    );
  });
  r.post(`${base(NAME)}/widget/check`, json(), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt(NAME, String(username), String(password)))
      return res.status(401).json({ error: "Wrong email or password." });
    const code = randomBytes(16).toString("hex");
    codes.set(code, String(username));
    res.json({ code });
  });
  r.post(`${base(NAME)}/exchange`, json(), (req, res) => {
    const username = codes.get(String(req.body?.code));
    if (!username) return res.status(400).json({ error: "bad code" });
    codes.delete(String(req.body.code));
    startSession(res, accounts, NAME, username);
    res.json({ ok: true });
  });
  accountRoute(r, accounts, NAME);
  return r;
}

export const iframeCrossOriginCase = defineCase({
  router: ({ accounts }) => iframeCrossOrigin(accounts),
  cases: [standard(NAME)],
});
