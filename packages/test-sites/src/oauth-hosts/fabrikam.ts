import express, { json, urlencoded, type Request, type Response } from "express";
import { escapeHtml as h, page, readCookie } from "../accounts";
import { token } from "./store";

export const SITE_NAME = "Fabrikam Boards";
// Every fixture on 127.0.0.1 shares one cookie jar whatever its port: names unique to this site.
const SESSION = "fabrikam_boards_sid";
const OAUTH_STATE = "fabrikam_boards_oauth_state";

export type Provider = "google" | "github";
const LABEL: Record<Provider, string> = { google: "Google", github: "GitHub" };

/** How the site reaches a provider: the browser at its real host name, the site itself at its loopback port. */
export interface ProviderEndpoint {
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

export const SITE_MESSAGES = {
  unlinked: (p: Provider) => `No ${SITE_NAME} account is linked to this ${LABEL[p]} account.`,
  denied: (p: Provider) => `You cancelled signing in with ${LABEL[p]}.`,
  state: "That sign-in link expired or came from somewhere else. Please try again.",
  exchange: (p: Provider) => `We couldn't sign you in with ${LABEL[p]}. Please try again.`,
  wrong: "Incorrect email or password.",
};

/**
 * The relying party: its own password form beside "Continue with Google" and "Sign in with GitHub". A
 * provider's answer is checked against the state it sent, the code exchanged server to server, and the
 * account found by the provider's email in the site's links. Sessions persist (30 days).
 */
export function createFabrikamApp(
  siteUrl: () => string,
  providers: Record<Provider, ProviderEndpoint>,
  extra: (app: express.Express) => void,
) {
  const app = express();
  app.disable("x-powered-by");
  const passwords = new Map<string, string>();
  const links = new Map<string, string>(); // provider + "\n" + provider email (lower case) → site account
  const sessions = new Map<string, string>();
  const signedIn = (req: Request) => sessions.get(readCookie(req.headers.cookie, SESSION) ?? "");

  const api = {
    addAccount: (email: string, password?: string) => void passwords.set(email.toLowerCase(), password ?? ""),
    link: (provider: Provider, providerEmail: string, account = providerEmail) => {
      if (!passwords.has(account.toLowerCase())) passwords.set(account.toLowerCase(), "");
      links.set(`${provider}\n${providerEmail.toLowerCase()}`, account.toLowerCase());
    },
  };

  const loginPage = (error?: string) =>
    page(
      `Sign in · ${SITE_NAME}`,
      `<h1>Sign in to ${SITE_NAME}</h1>${error ? `<p class="error" role="alert">${h(error)}</p>` : ""}
<form method="post" action="/login"><label>Email <input name="email" type="email" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label><button type="submit">Sign in</button></form>
<p>or</p><p><a class="social google" href="/auth/google" role="button">Continue with Google</a></p>
<p><a class="social github" href="/auth/github" role="button">Sign in with GitHub</a></p>`,
    );

  const startSession = (res: Response, account: string) => {
    const id = token();
    sessions.set(id, account);
    res
      .cookie(SESSION, id, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 30 * 86_400_000 })
      .redirect(302, "/account");
  };

  extra(app);
  app.get("/", (req, res) => res.redirect(302, signedIn(req) ? "/account" : "/login"));
  app.get("/login", (req, res) => {
    const code = String(req.query.error ?? "");
    const provider = (String(req.query.provider ?? "") in LABEL ? req.query.provider : "google") as Provider;
    const message =
      code === "unlinked"
        ? SITE_MESSAGES.unlinked(provider)
        : code === "denied"
          ? SITE_MESSAGES.denied(provider)
          : code === "state"
            ? SITE_MESSAGES.state
            : code === "exchange"
              ? SITE_MESSAGES.exchange(provider)
              : undefined;
    res.type("html").send(loginPage(message));
  });
  app.post("/login", urlencoded({ extended: false }), (req, res) => {
    const email = String(req.body?.email ?? "").toLowerCase();
    const known = passwords.get(email);
    if (!known || known !== req.body?.password) return res.type("html").send(loginPage(SITE_MESSAGES.wrong));
    startSession(res, email);
  });
  app.get("/account", (req, res) => {
    const account = signedIn(req);
    if (!account) return res.redirect(302, "/login");
    res
      .type("html")
      .send(
        page(
          `Your boards · ${SITE_NAME}`,
          `<nav><a href="/logout">Sign out</a></nav><h1>Your boards</h1><p>Signed in as <strong id="account-email">${h(account)}</strong></p>`,
        ),
      );
  });
  app.get("/logout", (req, res) => {
    sessions.delete(readCookie(req.headers.cookie, SESSION) ?? "");
    res.clearCookie(SESSION, { path: "/" }).redirect(302, "/login");
  });

  for (const provider of ["google", "github"] as const) {
    const p = providers[provider];
    const callback = () => `${siteUrl()}/callback/${provider}`;
    app.get(`/auth/${provider}`, (_req, res) => {
      const state = token();
      const url = new URL(p.authorizeUrl);
      for (const [k, v] of Object.entries({ client_id: p.clientId, redirect_uri: callback(), state, scope: p.scope }))
        url.searchParams.set(k, v);
      if (provider === "google") url.searchParams.set("response_type", "code");
      res
        .cookie(OAUTH_STATE, `${provider}:${state}`, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 600_000 })
        .redirect(302, url.toString());
    });
    app.get(`/callback/${provider}`, async (req, res) => {
      const fail = (error: string) => res.redirect(302, `/login?error=${error}&provider=${provider}`);
      const expected = readCookie(req.headers.cookie, OAUTH_STATE);
      res.clearCookie(OAUTH_STATE, { path: "/" });
      if (req.query.error === "access_denied") return fail("denied");
      if (!req.query.state || expected !== `${provider}:${String(req.query.state)}`) return fail("state");
      let email: string | undefined;
      try {
        const answer = await fetch(p.tokenUrl, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code: String(req.query.code ?? ""),
            client_id: p.clientId,
            client_secret: p.clientSecret,
            redirect_uri: callback(),
          }),
        });
        email = ((await answer.json()) as { email?: string }).email;
      } catch {
        email = undefined;
      }
      if (!email) return fail("exchange");
      const account = links.get(`${provider}\n${email.toLowerCase()}`);
      if (!account) return fail("unlinked");
      startSession(res, account);
    });
  }

  app.post("/__fixture/links", json(), (req, res) => {
    const { provider, email, account } = (req.body ?? {}) as { provider?: string; email?: string; account?: string };
    if ((provider !== "google" && provider !== "github") || typeof email !== "string")
      return res.status(400).json({ error: "provider (google|github) and email are required" });
    api.link(provider, email, account);
    res.status(201).json({ provider, email, account: (account ?? email).toLowerCase() });
  });
  app.post("/__fixture/accounts", json(), (req, res) => {
    const { email, password } = (req.body ?? {}) as { email?: string; password?: string };
    if (typeof email !== "string") return res.status(400).json({ error: "email is required" });
    api.addAccount(email, password);
    res.status(201).json({ email: email.toLowerCase() });
  });
  return { app, ...api };
}
