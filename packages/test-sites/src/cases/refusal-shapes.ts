import { json, Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { accountRoute, base, sessionCookie, startSession } from "./kit";
import { defineCase, standard } from "./login-case";
import { form, pass, type Shape, user, when } from "./refusal-shape-kit";
import { REAL_SITE_SHAPES } from "./refusal-shapes-real-sites";

// One page per refusal shape (refusal-shape-kit.ts says what a shape is): the generic markups here, real sites'
// in refusal-shapes-real-sites.ts.

const ARTICLE = Array.from(
  { length: 70 },
  (_, i) => `<p>Note ${i + 1}: our studio ships handmade ceramics from a small town by the sea.</p>`,
).join("");

const SHAPES: Shape[] = [
  // The markups plain refusals come in.
  {
    name: "flash-paragraph",
    via: "redirect",
    words: "Incorrect email or password.",
    html: (e) =>
      `<h1>Sign in</h1>${when(e, `<p class="flash">${e}</p>`)}${form(`<p>${user("email", "Email", 'type="email" autocomplete="email"')}</p><p>${pass("password", "Password")}</p>`, "Sign in")}`,
  },
  {
    name: "error-div",
    via: "rerender",
    words: "The username or password you entered is incorrect.",
    html: (e) =>
      `<h1>Member login</h1>${when(e, `<div class="error">${e}</div>`)}${form(`<div>${user("username", "Username")}</div><div>${pass("password", "Password")}</div>`, "Log in")}`,
  },
  {
    name: "field-hint-span",
    via: "rerender",
    words: "Wrong password. Try again or reset it.",
    html: (e) =>
      `<h1>Welcome back</h1>${form(`<div>${user("login", "Email or username")}</div><div>${pass("password", "Password")}<br><span class="hint">${e}</span></div>`, "Continue")}`,
  },
  {
    name: "text-in-form",
    via: "script",
    words: "Incorrect username or password.",
    show: `document.getElementById("f").prepend(msg);`,
    html: () =>
      `<h1>Sign in</h1>${form(`<div>${user("username", "Username")}</div><div>${pass("password", "Password")}</div>`, "Sign in")}`,
  },
  {
    name: "toast",
    via: "script",
    words: "Invalid credentials, please check and retry.",
    show: `const t = document.createElement("div"); t.className = "toast"; t.style.cssText = "position:fixed;bottom:1rem;right:1rem;padding:1rem;background:#333;color:#fff"; t.textContent = msg; document.body.append(t);`,
    html: () =>
      `<h1>Log in</h1>${form(`<div>${user("email", "Email")}</div><div>${pass("password", "Password")}</div>`, "Log in")}`,
  },
  {
    name: "table-layout",
    via: "rerender",
    words: "Login incorrect.",
    html: (
      e,
    ) => `<form id="f" method="post"><table><tr><td colspan="2"><b>Members area</b></td></tr>${when(e, `<tr><td colspan="2"><font color="red">${e}</font></td></tr>`)}
<tr><td>Login:</td><td><input name="login" autocomplete="username"></td></tr><tr><td>Password:</td><td><input name="passwd" type="password"></td></tr>
<tr><td></td><td><input type="submit" value="Login"></td></tr></table></form>`,
  },
  {
    name: "long-page",
    via: "redirect",
    words: "Sorry, that password isn't right.",
    html: (e) =>
      `<h1>Studio journal</h1>${ARTICLE}<section><h2>Sign in</h2>${when(e, `<div class="message">${e}</div>`)}${form(`<p>${user("username", "Username")}</p><p>${pass("password", "Password")}</p>`, "Sign in")}</section>`,
  },
  {
    name: "flash-lockout",
    via: "redirect",
    words: "Incorrect email or password.",
    locked: "Too many failed login attempts. Your account is locked for 30 minutes.",
    expect: { expect: "account_locked", session: undefined, wrongPassword: "account_locked", lockedUser: true },
    html: (e) =>
      `<h1>Sign in</h1>${when(e, `<p class="flash">${e}</p>`)}${form(`<p>${user("email", "Email")}</p><p>${pass("password", "Password")}</p>`, "Sign in")}`,
  },
  // A signed-in page that reports its own problems ("3 invalid entries") is still a success.
  {
    name: "dashboard-warnings",
    via: "redirect",
    words: "Invalid email or password.",
    html: (e) =>
      `<h1>Sign in</h1>${when(e, `<p class="flash">${e}</p>`)}${form(`<p>${user("email", "Email")}</p><p>${pass("password", "Password")}</p>`, "Sign in")}`,
  },
  // A page that says nothing new but "please sign in" is not a refusal.
  {
    name: "quiet-redirect",
    via: "redirect",
    words: "Please sign in to continue.",
    expect: { wrongPassword: "login_unconfirmed" },
    html: (e) =>
      `<h1>Sign in</h1>${when(e, `<p class="flash">${e}</p>`)}${form(`<p>${user("username", "Username")}</p><p>${pass("password", "Password")}</p>`, "Sign in")}`,
  },

  // A risk check's wall in place of the refusal (bot managers answer a distrusted attempt so): no wrong
  // password was said, and none must be read.
  {
    name: "risk-wall",
    via: "rerender",
    words: "We couldn't verify this sign-in. Try again from your usual device.",
    expect: { wrongPassword: "login_blocked" },
    html: (e) =>
      `<h1>Sign in</h1>${when(e, `<div class="notice">${e}</div>`)}${form(`<p>${user("username", "Username")}</p><p>${pass("password", "Password")}</p>`, "Sign in")}`,
  },
  ...REAL_SITE_SHAPES,
];

/** The signed-in page of a site whose dashboard itself reports problems, and shows no sign-out control. */
const DASHBOARD = (name: string) =>
  `<h1>Welcome, {user}</h1><p>Import finished: 3 invalid entries were skipped.</p><p>2 payments failed.</p><p><a href="${base(name)}/settings">Settings</a></p>`;

function shapeRouter(accounts: Accounts, shape: Shape): Router {
  const r = Router();
  const at = `${base(shape.name)}/login`;
  const flash = `${sessionCookie(shape.name)}_flash`;
  const render = (words: string) => {
    const script = shape.show
      ? `document.getElementById("f").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = await fetch("${at}", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(Object.fromEntries(new FormData(ev.target))) });
  if (res.ok) { location.href = "${base(shape.name)}/account"; return; }
  const msg = (await res.json()).error;
  ${shape.show}
});`
      : "";
    const html = page(shape.name, shape.html(escapeHtml(words)), script);
    return shape.lang ? html.replace('lang="en"', `lang="${shape.lang}"`) : html;
  };
  r.get(at, (req, res) => {
    const words = readCookie(req.headers.cookie, flash) ?? "";
    if (words) res.clearCookie(flash, { path: "/" });
    res.type("html").send(render(words));
  });
  r.post(at, urlencoded({ extended: false }), json(), (req, res) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const fields = Object.keys(body);
    const username = String(body[fields[0]!] ?? "");
    const verdict = accounts.check(
      shape.name,
      username,
      String(body[fields.find((f) => /pass|pwd|senha|kennwort|wachtwoord|clave|motdepasse/i.test(f)) ?? ""] ?? ""),
    );
    if (verdict === "ok") {
      startSession(res, accounts, shape.name, username);
      if (shape.show) return res.json({ ok: true });
      return res.redirect(302, `${base(shape.name)}/account`);
    }
    const words = (verdict === "locked" && shape.locked ? shape.locked : shape.words).replace("{user}", username);
    if (shape.show) return res.status(401).json({ error: words });
    if (shape.via === "redirect") return res.cookie(flash, words, { path: "/" }).redirect(302, at);
    res
      .status(shape.status ?? 200)
      .type("html")
      .send(render(words));
  });
  if (shape.name === "dashboard-warnings") {
    r.get(`${base(shape.name)}/account`, (req, res) => {
      const name = accounts.sessionUser(readCookie(req.headers.cookie, sessionCookie(shape.name)));
      if (!name) return res.redirect(302, at);
      res.type("html").send(page("Dashboard", DASHBOARD(shape.name).replace("{user}", escapeHtml(name))));
    });
  } else {
    accountRoute(r, accounts, shape.name);
  }
  return r;
}

function refusalShapes(accounts: Accounts): Router[] {
  return SHAPES.map((shape) => shapeRouter(accounts, shape));
}

/** The catalog's entries: a success for the right password; for a wrong one, the site's words quoted. */
const REFUSAL_SHAPE_CASES = SHAPES.map((s) => ({
  name: s.name,
  extra: s.expect ?? { refusal: s.words.split("{user}").pop()!.trim() },
}));

export const refusalShapeCases = defineCase({
  router: ({ accounts }) => refusalShapes(accounts),
  cases: REFUSAL_SHAPE_CASES.map((c) => standard(c.name, c.extra)),
});
