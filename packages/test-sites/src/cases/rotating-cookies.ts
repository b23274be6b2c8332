import { randomBytes } from "node:crypto";
import { type Request, type Response, Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { accountRoute, base, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

/**
 * Sites whose cookies change on every response, whatever the login did: a load balancer's stickiness
 * cookie (AWS ALB's `AWSALB`, F5's `BIGipServer…`), a bot manager's, a CSRF cookie re-issued with each
 * page, and an encrypted session cookie re-written on each response (Laravel's). A wrong password there
 * changes cookies too, so "a cookie changed" is no evidence of a session.
 */

const rotate = () => randomBytes(12).toString("base64url");

/** What every response of these sites sets: a load balancer's cookie and a CSRF cookie, new values each time. */
function balancerCookies(res: Response): void {
  res.cookie("AWSALB", rotate(), { path: "/", maxAge: 7 * 86_400_000 });
  res.cookie("csrftoken", rotate(), { path: "/", sameSite: "lax" });
}

interface RefusalPage {
  name: string;
  lang: string;
  /** The site's words for a wrong password, on a page of its own without the form; "" for a page without words. */
  words: string;
  /** The refusal page is the POST's own answer (at the login address), or a redirect to a page of its own. */
  via: "in-place" | "redirect";
  /** The login page loads a stylesheet from the same balancer (its cookies set by two responses before the submit). */
  stylesheet: boolean;
  labels: { title: string; user: string; pass: string; button: string; back: string };
}

const REFUSAL_PAGES: RefusalPage[] = [
  {
    name: "refusal-page-pl",
    lang: "pl",
    words: "Nieprawidłowy login lub hasło.",
    via: "in-place",
    stylesheet: true,
    labels: { title: "Logowanie", user: "Login", pass: "Hasło", button: "Zaloguj się", back: "Wróć do logowania" },
  },
  {
    name: "refusal-page-ja",
    lang: "ja",
    words: "メールアドレスまたはパスワードが正しくありません。",
    via: "in-place",
    stylesheet: false,
    labels: { title: "ログイン", user: "メールアドレス", pass: "パスワード", button: "ログイン", back: "戻る" },
  },
  {
    name: "refusal-page-tr",
    lang: "tr",
    words: "E-posta adresi veya şifre hatalı.",
    via: "redirect",
    stylesheet: false,
    labels: { title: "Giriş yap", user: "E-posta", pass: "Şifre", button: "Giriş", back: "Geri dön" },
  },
  {
    name: "refusal-page-ru",
    lang: "ru",
    words: "Неверный логин или пароль.",
    via: "redirect",
    stylesheet: true,
    labels: { title: "Вход", user: "Логин", pass: "Пароль", button: "Войти", back: "Назад" },
  },
  // A warning sign and a back arrow: nothing to read, only the structure tells.
  {
    name: "refusal-page-signs",
    lang: "en",
    words: "",
    via: "in-place",
    stylesheet: true,
    labels: { title: "Sign in", user: "Email", pass: "Password", button: "Sign in", back: "←" },
  },
  {
    name: "refusal-page-signs-redirect",
    lang: "en",
    words: "",
    via: "redirect",
    stylesheet: false,
    labels: { title: "Sign in", user: "Email", pass: "Password", button: "Sign in", back: "←" },
  },
];

const withLang = (html: string, lang: string) => html.replace('lang="en"', `lang="${lang}"`);

function refusalPageRouter(accounts: Accounts, c: RefusalPage): Router {
  const r = Router();
  const at = `${base(c.name)}/login`;
  const l = c.labels;
  const loginPage = () =>
    withLang(
      page(
        l.title,
        `${c.stylesheet ? `<link rel="stylesheet" href="${base(c.name)}/site.css">` : ""}<h1>${escapeHtml(l.title)}</h1>
<form method="post" action="${at}"><input type="hidden" name="csrfmiddlewaretoken" value="${rotate()}">
<label>${escapeHtml(l.user)} <input name="login" type="email" autocomplete="username"></label>
<label>${escapeHtml(l.pass)} <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">${escapeHtml(l.button)}</button></form>`,
      ),
      c.lang,
    );
  // The refusal: a page of its own, no form, only the site's words (or a sign) and a way back.
  const refusalPage = () =>
    withLang(
      page(
        l.title,
        `<div class="panel"><p class="icon" aria-hidden="true">⚠</p>${c.words ? `<p>${escapeHtml(c.words)}</p>` : ""}<p><a href="${at}">${escapeHtml(l.back)}</a></p></div>`,
      ),
      c.lang,
    );
  r.use(base(c.name), (_req, res, next) => {
    balancerCookies(res);
    next();
  });
  r.get(`${base(c.name)}/site.css`, (_req, res) => {
    res.type("css").send("body{background:#fafafa}");
  });
  r.get(at, (_req, res) => {
    res.type("html").send(loginPage());
  });
  r.get(`${base(c.name)}/failed`, (_req, res) => {
    res.type("html").send(refusalPage());
  });
  r.post(at, urlencoded({ extended: false }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const username = String(body.login ?? "");
    if (accounts.check(c.name, username, String(body.password ?? "")) === "ok") {
      startSession(res, accounts, c.name, username);
      return res.redirect(302, `${base(c.name)}/account`);
    }
    if (c.via === "redirect") return res.redirect(303, `${base(c.name)}/failed`);
    res.status(200).type("html").send(refusalPage());
  });
  accountRoute(r, accounts, c.name);
  return r;
}

/**
 * A Laravel-style site: its session cookie (`laravel_session`) and `XSRF-TOKEN` are encrypted afresh on
 * every response, so their values change on each page and on the login page's own request for a CSRF
 * cookie (`/sanctum/csrf-cookie`, as its single-page front ends call on load). The session behind them
 * stays the same until a login regenerates it. A signed-in visitor of the login page is sent to the
 * dashboard; a wrong password comes back to the form with the framework's words.
 */
function laravelSession(accounts: Accounts): Router {
  const name = "laravel-session";
  const r = Router();
  const at = `${base(name)}/login`;
  // Every value ever issued names its session, as an encrypted cookie decrypts to the same session id.
  const issued = new Map<string, string>();
  const sessions = new Map<string, { user?: string; flash?: string }>();
  const sessionOf = (req: Request): string => {
    const id = issued.get(readCookie(req.headers.cookie, "laravel_session") ?? "");
    if (id && sessions.has(id)) return id;
    const fresh = rotate();
    sessions.set(fresh, {});
    return fresh;
  };
  const send = (res: Response, id: string) => {
    const value = rotate();
    issued.set(value, id);
    res.cookie("laravel_session", value, { path: "/", httpOnly: true, sameSite: "lax", maxAge: 2 * 3_600_000 });
    res.cookie("XSRF-TOKEN", rotate(), { path: "/", sameSite: "lax", maxAge: 2 * 3_600_000 });
  };
  r.get("/sanctum/csrf-cookie", (req, res) => {
    send(res, sessionOf(req));
    res.status(204).end();
  });
  r.get(at, (req, res) => {
    const id = sessionOf(req);
    const session = sessions.get(id)!;
    send(res, id);
    if (session.user) return res.redirect(302, `${base(name)}/account`);
    const flash = session.flash ?? "";
    session.flash = undefined;
    res.type("html").send(
      page(
        "Log in",
        `<form method="post" action="${at}"><input type="hidden" name="_token" value="${rotate()}">
<div><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username">${flash ? `<ul class="text-sm text-red-600 space-y-1 mt-2"><li>${escapeHtml(flash)}</li></ul>` : ""}</div>
<div><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password"></div>
<button type="submit">Log in</button></form>`,
        `fetch("/sanctum/csrf-cookie", { credentials: "same-origin" });`,
      ),
    );
  });
  r.post(at, urlencoded({ extended: false }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const username = String(body.email ?? "");
    const old = sessionOf(req);
    if (accounts.check(name, username, String(body.password ?? "")) === "ok") {
      // A login regenerates the session (no fixation): a new id behind the same cookie name.
      sessions.delete(old);
      const id = rotate();
      sessions.set(id, { user: username });
      send(res, id);
      return res.redirect(302, `${base(name)}/account`);
    }
    sessions.get(old)!.flash = "These credentials do not match our records.";
    send(res, old);
    res.redirect(302, at);
  });
  r.get(`${base(name)}/account`, (req, res) => {
    const id = sessionOf(req);
    send(res, id);
    const user = sessions.get(id)?.user;
    if (!user) return res.redirect(302, at);
    // The dashboard's sign-out sits in a dropdown, as a form's button: no sign-out link on the page.
    res
      .type("html")
      .send(
        page(
          "Dashboard",
          `<h1>Welcome, ${escapeHtml(user)}</h1><p>You're logged in!</p><form method="post" action="${base(name)}/logout" hidden><button>Log Out</button></form>`,
        ),
      );
  });
  r.post(`${base(name)}/logout`, (req, res) => {
    const id = sessionOf(req);
    sessions.delete(id);
    res.redirect(302, at);
  });
  return r;
}

function rotatingCookies(accounts: Accounts): Router[] {
  return [...REFUSAL_PAGES.map((c) => refusalPageRouter(accounts, c)), laravelSession(accounts)];
}

/** The catalog's entries: a success for the right password; a wrong one refused in the site's words, or `login_unconfirmed` where it has none. */
const ROTATING_COOKIE_CASES = [
  ...REFUSAL_PAGES.map((c) => ({
    name: c.name,
    extra: c.words ? { refusal: c.words } : { wrongPassword: "login_unconfirmed" as const },
  })),
  {
    name: "laravel-session",
    extra: {
      session: { cookie: "laravel_session", cookieDomain: "127.0.0.1" },
      refusal: "These credentials do not match our records.",
    },
  },
];

export const rotatingCookieCases = defineCase({
  router: ({ accounts }) => rotatingCookies(accounts),
  cases: ROTATING_COOKIE_CASES.map((c) => standard(c.name, c.extra)),
});
