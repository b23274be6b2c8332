import express, { json, urlencoded, type Request, type Response } from "express";
import { readCookie } from "../accounts";
import { controlRoutes } from "./control";
import {
  authErrorPage,
  chooserPage,
  consentPage,
  identifierPage,
  passwordPage,
  rejectedPage,
  totpPage,
} from "./google-pages";
import { ProviderStore, token, type ProviderUser } from "./store";

export const GOOGLE_MESSAGES = {
  unknown: "Couldn't find your Google Account",
  wrongPassword: "Wrong password. Try again or click Forgot password to reset it.",
  wrongCode: "Wrong code. Try again.",
};

// Google's own session cookie name; it lives on accounts.google.com (through the host map), so it meets
// no other fixture's cookies.
const SESSION_COOKIE = "SID";
const BASIC_SCOPES = new Set([
  "openid",
  "email",
  "profile",
  "https://www.googleapis.com/auth/userinfo.email",
  "https://www.googleapis.com/auth/userinfo.profile",
]);

/** One sign-in in progress, named by Google's `TL` URL parameter from step to step. */
interface Flow {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
  userId?: string;
  /** Set once the password (and second factor) passed, or an already signed-in account was chosen. */
  verified?: boolean;
  passwordOk?: boolean;
}

/**
 * accounts.google.com as a relying party meets it: /o/oauth2/v2/auth → identifier → password → 2-Step
 * Verification (TOTP users) → "Sign in to <app>" the first time → back to redirect_uri with code and state;
 * an account chooser when the browser is already signed in. POST /token exchanges a code (server to server).
 */
export function createGoogleApp(store: ProviderStore) {
  const app = express();
  app.disable("x-powered-by");
  const flows = new Map<string, Flow>();
  const flowOf = (req: Request) =>
    flows.get(String(req.query.TL ?? (req.body as Record<string, string> | undefined)?.TL ?? ""));
  const session = (req: Request) => readCookie(req.headers.cookie, SESSION_COOKIE);

  app.use(controlRoutes(store));

  const authorize = (req: Request, res: Response) => {
    const q = req.query as Record<string, string | undefined>;
    const client = store.clients.get(q.client_id ?? "");
    if (!client)
      return res.status(401).type("html").send(authErrorPage("invalid_client", "The OAuth client was not found."));
    if (!client.redirectUris.includes(q.redirect_uri ?? "")) {
      return res
        .status(400)
        .type("html")
        .send(
          authErrorPage(
            "redirect_uri_mismatch",
            `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy.`,
          ),
        );
    }
    if (q.response_type !== "code")
      return res
        .status(400)
        .type("html")
        .send(authErrorPage("unsupported_response_type", "Only response_type=code is supported."));
    const tl = token();
    flows.set(tl, {
      clientId: client.id,
      redirectUri: q.redirect_uri!,
      state: q.state ?? "",
      scope: q.scope ?? "openid email",
    });
    const chooser = store.sessionUsers(session(req)).length > 0 && q.prompt !== "login";
    res.redirect(302, `/v3/signin/${chooser ? "accountchooser" : "identifier"}?TL=${tl}&flowName=GeneralOAuthFlow`);
  };
  app.get(["/o/oauth2/v2/auth", "/o/oauth2/auth"], authorize);

  /** Where a verified sign-in goes: the consent page the first time, else straight back with a code. */
  const finish = (res: Response, tl: string, flow: Flow, user: ProviderUser, req: Request): string => {
    flow.userId = user.id;
    flow.verified = true;
    res.cookie(SESSION_COOKIE, store.signIn(session(req), user.id), {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: 30 * 86_400_000,
    });
    if (!store.granted(user.id, flow.clientId)) return `/signin/oauth/id?authuser=0&TL=${tl}`;
    flows.delete(tl);
    return store.issueCode(user, flow.clientId, flow.redirectUri, flow.scope, flow.state, {
      scope: flow.scope,
      authuser: "0",
      prompt: "none",
    });
  };

  const needFlow = (req: Request, res: Response, step: (flow: Flow, user: ProviderUser | undefined) => void) => {
    const flow = flowOf(req);
    if (!flow)
      return res
        .status(400)
        .type("html")
        .send(authErrorPage("invalid_request", "This sign-in expired. Start again from the app."));
    step(flow, flow.userId ? store.find(flow.userId) : undefined);
  };
  const appName = (flow: Flow) => store.clients.get(flow.clientId)?.name ?? "the app";

  app.get("/v3/signin/identifier", (req, res) =>
    needFlow(req, res, (flow) => res.type("html").send(identifierPage(appName(flow)))),
  );
  app.get("/v3/signin/accountchooser", (req, res) =>
    needFlow(req, res, (flow) => res.type("html").send(chooserPage(appName(flow), store.sessionUsers(session(req))))),
  );
  app.get("/v3/signin/challenge/pwd", (req, res) =>
    needFlow(req, res, (_flow, user) =>
      user
        ? res.type("html").send(passwordPage(user.email))
        : res.redirect(302, `/v3/signin/identifier?TL=${req.query.TL}`),
    ),
  );
  app.get("/v3/signin/challenge/totp", (req, res) =>
    needFlow(req, res, (flow, user) =>
      user && flow.passwordOk
        ? res.type("html").send(totpPage(user.email))
        : res.redirect(302, `/v3/signin/identifier?TL=${req.query.TL}`),
    ),
  );
  app.get("/v3/signin/rejected", (req, res) =>
    needFlow(req, res, (_flow, user) => res.type("html").send(rejectedPage(user?.email ?? ""))),
  );

  // The background calls the pages' scripts make: { next } to move the page on, or { error } to show.
  app.post("/v3/signin/_/lookup", json(), (req, res) =>
    needFlow(req, res, (flow) => {
      const tl = String(req.body.TL);
      const user = store.find(String(req.body.identifier ?? ""));
      if (!user) return res.json({ error: GOOGLE_MESSAGES.unknown });
      flow.userId = user.id;
      flow.passwordOk = false;
      res.json({ next: `/v3/signin/${user.blocked === "identifier" ? "rejected" : "challenge/pwd"}?TL=${tl}` });
    }),
  );
  app.post("/v3/signin/_/challenge/pwd", json(), (req, res) =>
    needFlow(req, res, (flow, user) => {
      const tl = String(req.body.TL);
      if (!user) return res.json({ next: `/v3/signin/identifier?TL=${tl}` });
      const password = String(req.body.password ?? "");
      store.notePassword(user.id, password);
      if (password !== user.password) return res.json({ error: GOOGLE_MESSAGES.wrongPassword });
      if (user.blocked) return res.json({ next: `/v3/signin/rejected?TL=${tl}` });
      flow.passwordOk = true;
      res.json({ next: user.totp ? `/v3/signin/challenge/totp?TL=${tl}` : finish(res, tl, flow, user, req) });
    }),
  );
  app.post("/v3/signin/_/challenge/totp", json(), (req, res) =>
    needFlow(req, res, (flow, user) => {
      const tl = String(req.body.TL);
      if (!user || !flow.passwordOk) return res.json({ next: `/v3/signin/identifier?TL=${tl}` });
      if (!store.checkTotp(user, String(req.body.code ?? ""))) return res.json({ error: GOOGLE_MESSAGES.wrongCode });
      res.json({ next: finish(res, tl, flow, user, req) });
    }),
  );
  // An account already signed in on this browser continues without its password.
  app.post("/v3/signin/_/choose", json(), (req, res) =>
    needFlow(req, res, (flow) => {
      const user = store.sessionUsers(session(req)).find((u) => u.email === String(req.body.identifier ?? ""));
      if (!user) return res.json({ error: "This account is no longer signed in." });
      res.json({ next: finish(res, String(req.body.TL), flow, user, req) });
    }),
  );

  app.get("/signin/oauth/id", (req, res) =>
    needFlow(req, res, (flow, user) => {
      if (!user || !flow.verified) return res.redirect(302, `/v3/signin/identifier?TL=${req.query.TL}`);
      const basic = flow.scope
        .split(/\s+/)
        .filter(Boolean)
        .every((s) => BASIC_SCOPES.has(s));
      res.type("html").send(consentPage(appName(flow), user.email, String(req.query.TL), basic));
    }),
  );
  app.post("/signin/oauth/id", urlencoded({ extended: false }), (req, res) =>
    needFlow(req, res, (flow, user) => {
      const tl = String(req.body.TL);
      if (!user || !flow.verified) return res.redirect(302, `/v3/signin/identifier?TL=${tl}`);
      flows.delete(tl);
      if (req.body.submit_access !== "true") {
        const back = new URL(flow.redirectUri);
        back.searchParams.set("error", "access_denied");
        if (flow.state) back.searchParams.set("state", flow.state);
        return res.redirect(302, back.toString());
      }
      store.grant(user.id, flow.clientId);
      res.redirect(
        302,
        store.issueCode(user, flow.clientId, flow.redirectUri, flow.scope, flow.state, {
          scope: flow.scope,
          authuser: "0",
          prompt: "consent",
        }),
      );
    }),
  );

  // Server to server (oauth2.googleapis.com/token in real life): the relying party calls the loopback port.
  app.post("/token", urlencoded({ extended: false }), json(), (req, res) => {
    const b = (req.body ?? {}) as Record<string, string>;
    if (b.grant_type !== "authorization_code") return res.status(400).json({ error: "unsupported_grant_type" });
    const result = store.redeemCode(b.code ?? "", b.client_id ?? "", b.client_secret ?? "", b.redirect_uri);
    if (!result.ok)
      return res
        .status(result.error === "invalid_client" ? 401 : 400)
        .json({ error: result.error, error_description: "Bad Request" });
    // A fixture's shortcut: the email comes with the token (Google puts it in the id_token).
    res.json({
      access_token: `ya29.${token()}`,
      expires_in: 3599,
      token_type: "Bearer",
      scope: result.scope,
      email: result.user.email,
    });
  });
  return app;
}
