import { randomBytes } from "node:crypto";
import express, { json, type Request, type Response, urlencoded } from "express";
import * as oidc from "openid-client";
import { escapeHtml, page, readCookie } from "../accounts";
import { REFUSALS } from "../signup/kit";
import type { AcmeClient } from "./acme-id";
import { passkeyCeremonies } from "../passkey-ceremonies";
import {
  type LoginVariant,
  popupResultPage,
  SITE_MESSAGES,
  type SiteIdentity,
  siteAccountPage,
  siteLoginPage,
  siteSecurityPage,
  siteSignupFinishPage,
  siteSignupPage,
} from "./rp-pages";
import { SiteAccounts } from "./site-accounts";

/** An authorization request in flight, by the browser's `<key>_oauth` cookie. */
interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  intent: "login" | "signup";
  popup: boolean;
}

const DAY_MS = 24 * 3_600_000;
const VARIANTS: LoginVariant[] = ["login", "login-popup", "login-no-provider"];
/** The login and signup pages' messages after a redirect, by the `error` code in their URL. */
const SITE_ERRORS = {
  "not-linked": (site: SiteIdentity) => SITE_MESSAGES.notLinked(site),
  cancelled: () => SITE_MESSAGES.cancelled,
  failed: () => SITE_MESSAGES.failed,
};

/**
 * A relying-party site ("Northwind Notes", "Contoso Tasks"): its own login page with "Continue with Acme
 * ID", the code flow with openid-client (state, nonce, PKCE), accounts linked to Acme ID identities, and
 * signup through Acme ID. `/__fixture/*` is the tests' control surface.
 */
export function createRelyingParty(
  site: SiteIdentity,
  siteUrl: string,
  issuer: string,
  client: AcmeClient,
  accounts = new SiteAccounts(),
) {
  const cookie = { sid: `${site.key}_sid`, oauth: `${site.key}_oauth`, signup: `${site.key}_signup` };
  const pending = new Map<string, Pending>();
  const signups = new Map<string, { sub: string; email: string }>();
  let config: Promise<oidc.Configuration> | undefined;
  // Discovered at the first sign-in, not at start-up: the provider may start after the site; a failure is retried.
  const configuration = () =>
    (config ??= oidc
      .discovery(
        new URL(issuer),
        client.clientId,
        { client_secret: client.clientSecret },
        oidc.ClientSecretBasic(client.clientSecret),
        { execute: [oidc.allowInsecureRequests] },
      )
      .catch((err: unknown) => {
        config = undefined;
        throw err;
      }));

  const startSession = (res: Response, username: string) =>
    res.cookie(cookie.sid, accounts.openSession(username), {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: DAY_MS,
    });
  const html = (res: Response, body: string, status = 200) => res.status(status).type("html").send(body);
  const errorOf = (req: Request) => {
    const code = String(req.query.error ?? "");
    return code in SITE_ERRORS ? SITE_ERRORS[code as keyof typeof SITE_ERRORS](site) : undefined;
  };

  /** Accounts whose sign-in the callback loses (a fixture switch). */
  const lost = new Set<string>();
  const app = express();
  app.disable("x-powered-by");
  app.get("/", (_req, res) => res.redirect(302, "/login"));
  // Passkeys, as a site that also lets its Acme ID users add one does: "Add a passkey" in the security
  // settings, "Sign in with a passkey" on the login page with `?passkeys=1`. Visited as localhost (a relying
  // party is a host name, never an IP address), with Acme ID's callback there too.
  const signedInAs = (req: Request) => accounts.sessionAccount(readCookie(req.headers.cookie, cookie.sid))?.username;
  const passkeys = passkeyCeremonies({
    base: "",
    name: site.name,
    signedIn: signedInAs,
    startSession: (res, username) => void startSession(res, username),
    signedInPage: "/account",
  });
  app.use(passkeys.router);
  app.get("/settings/security", (req, res) => {
    const username = signedInAs(req);
    if (!username) return res.redirect(302, "/login");
    html(
      res,
      siteSecurityPage(
        site,
        passkeys.member(username).passkeys.map((p) => p.createdAt),
        passkeys.addScript,
      ),
    );
  });
  app.get("/__fixture/passkeys/:username", (req, res) => res.json(passkeys.counts(req.params.username)));
  // Acme ID sends the browser back to the host name it left from.
  const redirectUri = (req: Request) =>
    client.redirectUris.find((uri) => new URL(uri).host === req.headers.host) ?? client.redirectUris[0]!;

  for (const variant of VARIANTS) {
    app.get(`/${variant}`, (req, res) =>
      html(
        res,
        siteLoginPage(site, variant, errorOf(req), req.query.passkeys === "1" ? passkeys.signInScript() : undefined),
      ),
    );
    app.post(`/${variant}`, urlencoded({ extended: false }), (req, res) => {
      const { email = "", password = "" } = (req.body ?? {}) as Record<string, string>;
      const account = accounts.checkPassword(email, password);
      if (!account) return html(res, siteLoginPage(site, variant, SITE_MESSAGES.wrongPassword));
      startSession(res, account.username).redirect(302, "/account");
    });
  }
  for (const other of ["google", "github"]) {
    app.get(`/auth/${other}`, (_req, res) =>
      res
        .status(404)
        .type("text")
        .send(SITE_MESSAGES.notConfigured(other === "google" ? "Google" : "GitHub")),
    );
  }

  app.get("/auth/acme", async (req, res) => {
    const verifier = oidc.randomPKCECodeVerifier();
    const flow: Pending = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier,
      intent: req.query.intent === "signup" ? "signup" : "login",
      popup: req.query.popup === "1",
    };
    const token = randomBytes(16).toString("hex");
    pending.set(token, flow);
    const url = oidc.buildAuthorizationUrl(await configuration(), {
      redirect_uri: redirectUri(req),
      scope: "openid email profile",
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    res
      .cookie(cookie.oauth, token, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 600_000 })
      .redirect(302, url.href);
  });

  /** Where a sign-in ends: the popup tells its opener; a page redirects (to the account, or back with the message code). */
  const finish = (res: Response, flow: Pending | undefined, to: string, error?: keyof typeof SITE_ERRORS) => {
    if (!flow?.popup) return res.redirect(302, error ? `${to}?error=${error}` : to);
    html(
      res,
      popupResultPage(site, !error, error ? SITE_ERRORS[error](site) : undefined, error ? `${to}?error=${error}` : to),
    );
  };

  app.get("/callback", async (req, res) => {
    const token = readCookie(req.headers.cookie, cookie.oauth);
    const flow = token ? pending.get(token) : undefined;
    if (token) pending.delete(token);
    res.clearCookie(cookie.oauth, { path: "/" });
    const back = flow?.intent === "signup" ? "/signup" : "/login";
    if (req.query.error === "access_denied") return finish(res, flow, back, "cancelled");
    if (!flow) return finish(res, flow, back, "failed");
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(
        await configuration(),
        new URL(req.originalUrl, new URL(redirectUri(req)).origin),
        {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
        },
      );
      claims = tokens.claims();
    } catch {
      return finish(res, flow, back, "failed");
    }
    if (!claims) return finish(res, flow, back, "failed");
    const email = typeof claims.email === "string" ? claims.email : undefined;
    const account = accounts.linkedTo(claims.sub, email);
    if (account && lost.has(account.username)) {
      // A site that loses the sign-in without a word (a session store down, a misrouted callback): its public
      // page, with a visitor cookie set, and no session.
      res.cookie(`${site.key}_visitor`, randomBytes(8).toString("hex"), { sameSite: "lax", path: "/", maxAge: DAY_MS });
      return finish(res, flow, "/welcome");
    }
    if (account) {
      startSession(res, account.username);
      return finish(res, flow, "/account");
    }
    if (flow.intent === "signup" && email) {
      const ticket = randomBytes(16).toString("hex");
      signups.set(ticket, { sub: claims.sub, email });
      res.cookie(cookie.signup, ticket, { httpOnly: true, sameSite: "lax", path: "/signup", maxAge: 600_000 });
      return finish(res, flow, "/signup/finish");
    }
    finish(res, flow, "/login", "not-linked");
  });

  app.get("/account", (req, res) => {
    const account = accounts.sessionAccount(readCookie(req.headers.cookie, cookie.sid));
    if (!account) return res.redirect(302, "/login");
    html(res, siteAccountPage(site, account.username, account.email));
  });
  app.post("/logout", (req, res) => {
    accounts.endSession(readCookie(req.headers.cookie, cookie.sid));
    res.clearCookie(cookie.sid, { path: "/" }).redirect(302, "/login");
  });

  app.get("/signup", (req, res) => html(res, siteSignupPage(site, errorOf(req))));
  const signupOf = (req: Request) => signups.get(readCookie(req.headers.cookie, cookie.signup) ?? "");
  app.get("/signup/finish", (req, res) => {
    const signup = signupOf(req);
    if (!signup) return res.redirect(302, "/signup");
    html(res, siteSignupFinishPage(site, signup.email));
  });
  app.post("/signup/finish", urlencoded({ extended: false }), (req, res) => {
    const signup = signupOf(req);
    if (!signup) return res.redirect(302, "/signup");
    const { username = "", terms = "" } = (req.body ?? {}) as Record<string, string>;
    const name = username.trim();
    const refusal = !name
      ? SITE_MESSAGES.usernameMissing
      : accounts.has(name)
        ? REFUSALS.usernameTaken
        : terms
          ? null
          : REFUSALS.terms;
    if (refusal) return html(res, siteSignupFinishPage(site, signup.email, refusal, name));
    signups.delete(readCookie(req.headers.cookie, cookie.signup) ?? "");
    accounts.upsert(name, signup.email).sub = signup.sub;
    res.clearCookie(cookie.signup, { path: "/signup" });
    startSession(res, name).redirect(302, "/account");
  });

  app.get("/welcome", (_req, res) =>
    html(
      res,
      page(
        `Welcome · ${site.name}`,
        `<header><strong>${escapeHtml(site.name)}</strong> <a href="/login">Log in</a></header><h1>Welcome to ${escapeHtml(site.name)}</h1><p>Everything you need, in one place.</p>`,
      ),
    ),
  );
  app.post("/__fixture/links", json(), (req, res) => {
    const { email, username, password, loseSignIn } = (req.body ?? {}) as {
      email?: unknown;
      username?: unknown;
      password?: unknown;
      loseSignIn?: unknown;
    };
    if (typeof email !== "string" || !email.includes("@")) return res.status(400).json({ error: "email is required" });
    const name = typeof username === "string" && username ? username : email.split("@")[0]!;
    const account = accounts.upsert(name, email, typeof password === "string" ? password : "");
    // `loseSignIn`: the site's callback drops this account's sign-in silently (see /callback).
    if (loseSignIn === true) lost.add(account.username);
    else lost.delete(account.username);
    res.json({ username: account.username, email: account.email });
  });
  app.get("/__fixture/accounts", (_req, res) => res.json({ accounts: accounts.list() }));
  app.get("/__fixture/sessions/:value", (req, res) => {
    const account = accounts.sessionAccount(req.params.value);
    res.json({ valid: Boolean(account), username: account?.username ?? null });
  });
  return { app, accounts, cookies: cookie };
}
