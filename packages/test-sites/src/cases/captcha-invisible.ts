import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { captchaService, checkCaptcha } from "./captcha";
import { base, errorAlert, formCase } from "./kit";
import { captchaBlocked, defineCase, standard } from "./login-case";

interface Widget {
  name: string;
  /** The widget's markup inside the form (its response fields included). */
  markup: string;
  /** The field the login reads the token from. */
  field: string;
  /** How the widget's script passes: on the form's submit, on a click of its button, or by itself after loading. */
  runs: "submit" | "button" | "managed";
  /** The provider does not trust the browser: it opens an image challenge instead of a token. */
  distrusts?: boolean;
}

const fetchToken = (name: string) =>
  `(await (await fetch("${base(name)}/captcha/token", { method: "POST" })).json()).token`;
const fill = (field: string) => `for (const el of document.querySelectorAll("[name=${field}]")) el.value = token;`;
const BADGE = (
  name: string,
) => `<div class="grecaptcha-badge" style="position:fixed;bottom:14px;right:0;width:256px;height:60px">
<iframe title="reCAPTCHA" src="${base(name)}/recaptcha/api2/anchor?size=invisible" width="256" height="60" style="border:0"></iframe>
<textarea name="g-recaptcha-response" style="display:none"></textarea></div>`;

// Invisible and managed CAPTCHAs as sites embed them; each fake script does what the real widget does
// for a browser it trusts (or, `distrusts`, opens its image challenge).
const WIDGETS: Widget[] = [
  {
    name: "recaptcha-invisible-badge",
    markup: BADGE("recaptcha-invisible-badge"),
    field: "g-recaptcha-response",
    runs: "submit",
  },
  {
    name: "recaptcha-response-field",
    markup: `<input type="hidden" name="g-recaptcha-response">`,
    field: "g-recaptcha-response",
    runs: "submit",
  },
  {
    name: "recaptcha-button",
    markup: `<textarea name="g-recaptcha-response" style="display:none"></textarea>`,
    field: "g-recaptcha-response",
    runs: "button",
  },
  {
    name: "hcaptcha-invisible",
    markup: `<div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001" data-size="invisible"><small>Protected by hCaptcha</small>
<textarea name="h-captcha-response" style="display:none"></textarea><textarea name="g-recaptcha-response" style="display:none"></textarea></div>`,
    field: "h-captcha-response",
    runs: "submit",
  },
  {
    name: "turnstile-managed",
    markup: `<div class="cf-turnstile" data-sitekey="0x4AAAAAAAturnstile"><iframe title="Widget containing a Cloudflare security challenge"
src="${base("turnstile-managed")}/turnstile/managed" width="300" height="65" style="border:0"></iframe><input type="hidden" name="cf-turnstile-response"></div>`,
    field: "cf-turnstile-response",
    runs: "managed",
  },
  {
    name: "recaptcha-invisible-challenged",
    markup: BADGE("recaptcha-invisible-challenged"),
    field: "g-recaptcha-response",
    runs: "submit",
    distrusts: true,
  },
];

function script(w: Widget): string {
  const pass = w.distrusts
    ? `document.body.insertAdjacentHTML("beforeend", '<iframe title="recaptcha challenge expires in two minutes" src="${base(w.name)}/recaptcha/api2/bframe" width="400" height="480" style="position:absolute;top:4rem;background:#fff"></iframe>');`
    : `const token = ${fetchToken(w.name)}; ${fill(w.field)} f.submit();`;
  switch (w.runs) {
    case "submit":
      return `const f = document.getElementById("f");
f.addEventListener("submit", async (ev) => { ev.preventDefault(); ${pass} });`;
    case "button":
      // reCAPTCHA bound to the submit button: its click runs the challenge, the callback sends the form.
      return `const f = document.getElementById("f");
f.querySelector("button.g-recaptcha").addEventListener("click", async (ev) => { ev.preventDefault(); ${pass} });`;
    case "managed":
      return `setTimeout(async () => { const token = ${fetchToken(w.name)}; ${fill(w.field)} }, 600);`;
  }
}

function widgetCase(accounts: Accounts, w: Widget): Router {
  const button =
    w.runs === "button"
      ? `<button class="g-recaptcha" data-sitekey="6Lc_button" data-callback="onSubmit" data-action="login">Sign in</button>`
      : `<button type="submit">Sign in</button>`;
  const r = formCase(
    accounts,
    w.name,
    (error) =>
      page(
        "Sign in",
        `<h1>Sign in</h1>${errorAlert(error)}
<form id="f" method="post" action="${base(w.name)}/login">
  <label>Username <input name="username" autocomplete="username"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password"></label>
  ${w.markup}${button}
</form>`,
        script(w),
      ),
    { gate: checkCaptcha(w.name, w.field) },
  );
  r.get(`${base(w.name)}/recaptcha/api2/anchor`, (_req, res) =>
    res.type("html").send(page("reCAPTCHA", `<small>protected by reCAPTCHA</small>`)),
  );
  r.get(`${base(w.name)}/recaptcha/api2/bframe`, (_req, res) =>
    res.type("html").send(page("reCAPTCHA challenge", `<p>Select all images with buses</p><button>Verify</button>`)),
  );
  r.get(`${base(w.name)}/turnstile/managed`, (_req, res) =>
    res.type("html").send(page("Turnstile", `<span>Verifying…</span>`)),
  );
  captchaService(r, w.name);
  return r;
}

const TRUSTING = WIDGETS.filter((w) => !w.distrusts);
const DISTRUSTING = WIDGETS.filter((w) => w.distrusts);

/** Logins behind invisible or managed CAPTCHAs: they run by themselves; the site checks their token. */
export const invisibleCaptchaCases = defineCase({
  router: ({ accounts }) => TRUSTING.map((w) => widgetCase(accounts, w)),
  cases: TRUSTING.map((w) => standard(w.name)),
});

/** The same widgets for a browser they distrust: a challenge a person must solve. */
export const challengedCaptchaCases = defineCase({
  router: ({ accounts }) => DISTRUSTING.map((w) => widgetCase(accounts, w)),
  cases: DISTRUSTING.map((w) => captchaBlocked(w.name)),
});
