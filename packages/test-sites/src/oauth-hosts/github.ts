import express, { json, urlencoded, type Request, type Response } from "express";
import { readCookie } from "../accounts";
import { controlRoutes } from "./control";
import { authorizePage, loginPage, notFoundPage, shell, twoFactorPage } from "./github-pages";
import { ProviderStore, token, type ProviderUser } from "./store";

export const GITHUB_MESSAGES = {
  wrong: "Incorrect username or password.",
  twoFactorFailed: "Two-factor authentication failed.",
  suspended: "Your account is suspended. Please visit https://support.github.com for more information.",
};

// GitHub's own cookie names; they live on github.com (through the host map), apart from every other fixture.
const SESSION = "user_session";
const PENDING = "_gh_sess";
const cookie = { httpOnly: true, sameSite: "lax" as const, path: "/" };

/** A path on this site to go back to after signing in; anything else goes home (no open redirect). */
const safeReturn = (value: unknown) =>
  typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : "/";

/**
 * github.com as an OAuth app meets it: /login/oauth/authorize → /login?return_to=… when signed out →
 * /sessions/two-factor/app for TOTP users → "Authorize <app>" the first time → redirect_uri with code and
 * state. POST /login/oauth/access_token exchanges a code (server to server).
 */
export function createGitHubApp(store: ProviderStore) {
  const app = express();
  app.disable("x-powered-by");
  // Signed-in sessions and password-passed logins waiting for their second factor.
  const pending = new Map<string, { userId: string; returnTo: string }>();
  const signedIn = (req: Request): ProviderUser | undefined =>
    store.sessionUsers(readCookie(req.headers.cookie, SESSION))[0];
  const appOf = (returnTo: string) => {
    const clientId = new URL(returnTo, "http://github.com").searchParams.get("client_id");
    return clientId ? store.clients.get(clientId)?.name : undefined;
  };

  app.use(controlRoutes(store));

  const startSession = (res: Response, user: ProviderUser, returnTo: string) => {
    res.cookie(SESSION, store.signIn(undefined, user.id), { ...cookie, maxAge: 14 * 86_400_000 });
    res.cookie("logged_in", "yes", { ...cookie, maxAge: 14 * 86_400_000 });
    res.cookie("dotcom_user", user.id, { ...cookie, maxAge: 14 * 86_400_000 });
    res.clearCookie(PENDING, { path: "/" }).redirect(302, returnTo);
  };

  app.get("/", (req, res) => {
    const user = signedIn(req);
    res
      .type("html")
      .send(
        shell(
          "GitHub",
          user
            ? `<h1>Dashboard</h1><p>Signed in as <strong>${user.id}</strong></p>`
            : `<h1>GitHub</h1><a href="/login">Sign in</a>`,
        ),
      );
  });

  app.get("/login", (req, res) => {
    const returnTo = safeReturn(req.query.return_to);
    if (signedIn(req)) return res.redirect(302, returnTo);
    res.type("html").send(loginPage(returnTo, appOf(returnTo)));
  });

  app.post("/session", urlencoded({ extended: false }), (req, res) => {
    const b = (req.body ?? {}) as Record<string, string>;
    const returnTo = safeReturn(b.return_to);
    const login = String(b.login ?? "");
    store.notePassword(login, String(b.password ?? ""));
    const user = store.find(login);
    if (!user || user.password !== b.password)
      return res
        .status(200)
        .type("html")
        .send(loginPage(returnTo, appOf(returnTo), GITHUB_MESSAGES.wrong, login));
    if (user.blocked)
      return res
        .status(200)
        .type("html")
        .send(loginPage(returnTo, appOf(returnTo), GITHUB_MESSAGES.suspended, login));
    if (!user.totp) return startSession(res, user, returnTo);
    const id = token();
    pending.set(id, { userId: user.id, returnTo });
    res.cookie(PENDING, id, cookie).redirect(302, "/sessions/two-factor/app");
  });

  app.get("/sessions/two-factor/app", (req, res) => {
    if (!pending.has(readCookie(req.headers.cookie, PENDING) ?? "")) return res.redirect(302, "/login");
    res.type("html").send(twoFactorPage());
  });
  app.post("/sessions/two-factor", urlencoded({ extended: false }), (req, res) => {
    const id = readCookie(req.headers.cookie, PENDING) ?? "";
    const waiting = pending.get(id);
    const user = waiting && store.find(waiting.userId);
    if (!waiting || !user) return res.redirect(302, "/login");
    if (!store.checkTotp(user, String(req.body?.app_otp ?? "")))
      return res.status(200).type("html").send(twoFactorPage(GITHUB_MESSAGES.twoFactorFailed));
    pending.delete(id);
    startSession(res, user, waiting.returnTo);
  });

  const denied = (redirectUri: string, state: string) => {
    const back = new URL(redirectUri);
    back.searchParams.set("error", "access_denied");
    back.searchParams.set("error_description", "The user has denied your application access.");
    back.searchParams.set(
      "error_uri",
      "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#access-denied",
    );
    if (state) back.searchParams.set("state", state);
    return back.toString();
  };

  const authorize = (req: Request, res: Response, params: Record<string, string | undefined>) => {
    const client = store.clients.get(params.client_id ?? "");
    if (!client) return res.status(404).type("html").send(notFoundPage());
    const redirectUri = params.redirect_uri ?? client.redirectUris[0]!;
    if (!client.redirectUris.includes(redirectUri)) {
      return res
        .status(400)
        .type("html")
        .send(
          shell(
            "Redirect URI mismatch",
            `<h1>Be careful!</h1><p>The redirect_uri is not associated with this application.</p>`,
          ),
        );
    }
    const fields = { clientId: client.id, redirectUri, state: params.state ?? "", scope: params.scope ?? "" };
    const user = signedIn(req);
    if (!user)
      return res.redirect(
        302,
        `/login?client_id=${encodeURIComponent(client.id)}&return_to=${encodeURIComponent(req.originalUrl)}`,
      );
    if (req.method === "POST") {
      if (params.authorize !== "1") return res.redirect(302, denied(redirectUri, fields.state));
      store.grant(user.id, client.id);
    }
    if (store.granted(user.id, client.id))
      return res.redirect(302, store.issueCode(user, client.id, redirectUri, fields.scope, fields.state));
    res.type("html").send(authorizePage(client.name, client.owner, user.id, fields));
  };
  app.get("/login/oauth/authorize", (req, res) => authorize(req, res, req.query as Record<string, string>));
  app.post("/login/oauth/authorize", urlencoded({ extended: false }), (req, res) =>
    authorize(req, res, req.body ?? {}),
  );

  // Server to server: GitHub answers errors with 200 and an error field, and form-encoded unless JSON is asked for.
  app.post("/login/oauth/access_token", urlencoded({ extended: false }), json(), (req, res) => {
    const b = (req.body ?? {}) as Record<string, string>;
    const result = store.redeemCode(b.code ?? "", b.client_id ?? "", b.client_secret ?? "", b.redirect_uri);
    const answer: Record<string, string> = result.ok
      ? { access_token: `gho_${token()}`, token_type: "bearer", scope: result.scope, email: result.user.email }
      : result.error === "invalid_client"
        ? {
            error: "incorrect_client_credentials",
            error_description: "The client_id and/or client_secret passed are incorrect.",
          }
        : { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." };
    if (String(req.headers.accept ?? "").includes("application/json")) return res.json(answer);
    res.type("application/x-www-form-urlencoded").send(new URLSearchParams(answer).toString());
  });
  return app;
}
