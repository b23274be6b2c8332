import { type Request, type Response, Router, json, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";

/** Each case lives under `/cases/<name>/`, keeps its own session cookie and counts its own attempts. */
export const base = (name: string) => `/cases/${name}`;
export const sessionCookie = (name: string) => `${name.replace(/-/g, "_")}_sid`;

export function startSession(
  res: Response,
  accounts: Accounts,
  name: string,
  username: string,
  maxAgeMs = 3_600_000,
): void {
  const options = { httpOnly: true, sameSite: "lax" as const, path: "/" };
  res.cookie(
    sessionCookie(name),
    accounts.openSession(username),
    maxAgeMs > 0 ? { ...options, maxAge: maxAgeMs } : options,
  );
}

const accountPage = (name: string, user: string, script = "") =>
  page(
    "Account",
    `<nav><a href="${base(name)}/logout">Sign out</a></nav><h1>Welcome, ${escapeHtml(user)}</h1>`,
    script,
  );

/**
 * The signed-in page every case lands on: a greeting and a sign-out link (and the case's own script),
 * or back to the login page.
 */
export function accountRoute(r: Router, accounts: Accounts, name: string, script = ""): void {
  r.get(`${base(name)}/account`, (req, res) => {
    const user = accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(name)));
    if (!user) return res.redirect(302, `${base(name)}/login`);
    res.type("html").send(accountPage(name, user, script));
  });
  r.get(`${base(name)}/logout`, (req, res) => {
    accounts.endSession(readCookie(req.headers.cookie, sessionCookie(name)));
    res.clearCookie(sessionCookie(name), { path: "/" }).redirect(302, `${base(name)}/login`);
  });
}

export const MESSAGES = {
  wrong: "Invalid username or password.",
  locked: "Your account has been locked after too many failed attempts. Contact support to unlock it.",
};

/**
 * A server-rendered form case: GET shows the form, POST checks the fields named `user` and `pass`, signs
 * in and redirects to the account page, or shows the form again with the site's message.
 */
export function formCase(
  accounts: Accounts,
  name: string,
  render: (error?: string, req?: Request, res?: Response) => string,
  options: {
    fields?: { user: string; pass: string };
    messages?: { wrong: string; locked: string };
    /** Which account the post is for, when the form has no identifier field (default: the `user` field). */
    identify?: (body: Record<string, string>) => string;
    /** Whether the post came from the login control; any other post (a page-wide form's search button,
     * Enter without the control's script) shows the page again, nothing checked. */
    sentByLogin?: (body: Record<string, string>) => boolean;
    /** Checked before the account, as sites check a CAPTCHA token first: a string refuses with it, no attempt counted. */
    gate?: (body: Record<string, string>, req: Request) => string | null;
    /** Extra checks of the posted form (hidden traps, additional fields); a string refuses with it. */
    verify?: (body: Record<string, string>) => string | null;
    /** What to do instead of redirecting to the account page (an interstitial, a second factor). */
    onSuccess?: (req: Request, res: Response, username: string) => void;
    /** What to do instead of showing the form again with the message. */
    onRefusal?: (req: Request, res: Response) => void;
    /** A script the account page runs. */
    accountScript?: string;
  } = {},
): Router {
  const r = Router();
  const fields = options.fields ?? { user: "username", pass: "password" };
  const messages = options.messages ?? MESSAGES;
  r.get(`${base(name)}/login`, (req, res) => {
    res.type("html").send(render(undefined, req, res));
  });
  r.post(`${base(name)}/login`, urlencoded({ extended: false }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    if (options.sentByLogin && !options.sentByLogin(body)) return res.type("html").send(render(undefined, req, res));
    const gated = options.gate?.(body, req);
    if (gated)
      return res
        .status(200)
        .type("html")
        .send(render(gated, req, res));
    // verify may map a redesigned form's field names onto the usual ones: read the account after it.
    const refusal = options.verify?.(body);
    const username = options.identify?.(body) ?? body[fields.user] ?? "";
    const verdict = accounts.check(name, username, body[fields.pass] ?? "");
    if ((refusal || verdict !== "ok") && options.onRefusal) return options.onRefusal(req, res);
    if (refusal || verdict !== "ok") {
      res
        .status(200)
        .type("html")
        .send(render(refusal ?? messages[verdict === "locked" ? "locked" : "wrong"], req, res));
      return;
    }
    if (options.onSuccess) return options.onSuccess(req, res, username);
    startSession(res, accounts, name, username);
    res.redirect(302, `${base(name)}/account`);
  });
  accountRoute(r, accounts, name, options.accountScript);
  return r;
}

/**
 * A JSON login API for script-driven cases: 200 and a session cookie, or 401/423 with the message the
 * page shows.
 */
export function jsonLoginApi(accounts: Accounts, name: string): Router {
  const r = Router();
  r.post(`${base(name)}/api/login`, json(), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    const verdict = accounts.check(name, String(username), String(password));
    if (verdict !== "ok") {
      res
        .status(verdict === "locked" ? 423 : 401)
        .json({ error: verdict === "locked" ? MESSAGES.locked : "Incorrect email or password." });
      return;
    }
    startSession(res, accounts, name, String(username));
    res.json({ user: String(username) });
  });
  accountRoute(r, accounts, name);
  return r;
}

/** Browser-side: posts credentials to the case's JSON API, then goes to the account page or shows the error. */
export const POST_LOGIN_SCRIPT = (name: string) => `
async function postLogin(username, password, showError) {
  const res = await fetch("${base(name)}/api/login", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }) });
  if (res.ok) { location.href = "${base(name)}/account"; return; }
  showError((await res.json()).error);
}`;

/** The site's message above a form, as most sites show it. */
export const errorAlert = (error?: string) => (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : "");

/** A plain login form, for cases whose point is what surrounds it. */
export function plainForm(name: string, error?: string, extra = ""): string {
  return `${errorAlert(error)}
<form method="post" action="${base(name)}/login">
  <label>Username <input name="username" autocomplete="username"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  ${extra}<button type="submit">Sign in</button>
</form>`;
}
