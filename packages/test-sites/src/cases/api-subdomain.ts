import { type NextFunction, type Request, type Response, Router, json } from "express";
import { type Accounts, page } from "../accounts";
import { base } from "./kit";
import { defineCase, onHost, standard } from "./login-case";

const NAME = "api-subdomain";

/**
 * An app on www.shop.localhost whose login API lives on api.shop.localhost (same site, other origin): the
 * API sets its own session cookie through a credentialed CORS request; the page keeps a token in
 * localStorage.
 */
function apiSubdomain(accounts: Accounts): Router {
  const r = Router();
  const cors = (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin ?? "";
    if (/^http:\/\/www\.shop\.localhost:\d+$/.test(origin)) {
      res.setHeader("access-control-allow-origin", origin);
      res.setHeader("access-control-allow-credentials", "true");
      res.setHeader("access-control-allow-headers", "content-type");
      res.setHeader("vary", "origin");
    }
    if (req.method === "OPTIONS") return res.status(204).end();
    next();
  };
  r.options(`${base(NAME)}/api/login`, cors);
  r.post(`${base(NAME)}/api/login`, cors, json(), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt(NAME, String(username), String(password)))
      return res.status(401).json({ error: "Incorrect email or password." });
    const token = accounts.openSession(String(username));
    res.cookie("api_session", token, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 3_600_000 });
    res.json({ token });
  });
  r.get(`${base(NAME)}/login`, (req, res) => {
    const api = `http://api.shop.localhost:${(req.headers.host ?? "").split(":")[1]}`;
    res.type("html").send(
      page(
        "Shop",
        `<div id="app"><h1>Sign in</h1><p id="err" role="alert" class="error"></p>
<form id="f"><label>Email <input id="u" autocomplete="username"></label><label>Password <input id="p" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></div>`,
        `document.getElementById("f").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await fetch(${JSON.stringify(api)} + "${base(NAME)}/api/login", { method: "POST", credentials: "include",
    headers: { "content-type": "application/json" }, body: JSON.stringify({ username: u.value, password: p.value }) });
  const body = await res.json();
  if (!res.ok) { document.getElementById("err").textContent = body.error; return; }
  localStorage.setItem("shop_token", body.token);
  document.getElementById("app").innerHTML = '<h1>Your orders</h1><button id="logout">Sign out</button>';
});`,
      ),
    );
  });
  return r;
}

export const apiSubdomainCase = defineCase({
  router: ({ accounts }) => apiSubdomain(accounts),
  cases: [
    standard(NAME, {
      url: onHost("www.shop.localhost", `${base(NAME)}/login`),
      session: {
        cookie: "api_session",
        cookieDomain: "api.shop.localhost",
        storageKey: "shop_token",
        storageHost: "www.shop.localhost",
      },
      account: undefined,
    }),
  ],
});
