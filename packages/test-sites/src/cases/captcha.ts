import { randomBytes } from "node:crypto";
import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";
import { captchaBlocked, defineCase, standard } from "./login-case";

/**
 * The fake CAPTCHA service of a case: widgets fetch their token from `<case>/captcha/token` (as real ones
 * get it from the provider), the login checks and spends it. `captchaToken(name)` is what a solving
 * service would obtain for the case's site key.
 */
const issued = new Map<string, Set<string>>();

export function captchaToken(name: string): string {
  const token = `tok-${randomBytes(12).toString("base64url")}`;
  if (!issued.has(name)) issued.set(name, new Set());
  issued.get(name)!.add(token);
  return token;
}

export function captchaService(r: Router, name: string): void {
  r.post(`${base(name)}/captcha/token`, (_req, res) => res.json({ token: captchaToken(name) }));
}

/** The login's check of the token the form posted in `field` (spent once used). */
export const checkCaptcha =
  (name: string, field = "g-recaptcha-response") =>
  (body: Record<string, string>) =>
    issued.get(name)?.delete(body[field] ?? "") ? null : "Please complete the CAPTCHA.";

// reCAPTCHA's checkbox: the anchor frame ticks its box and hands the token to the page (postMessage), or,
// for a browser it does not trust, asks the page to open the image challenge (the "bframe").
const anchorPage = (name: string, trusts: boolean) =>
  page(
    "reCAPTCHA",
    `<span id="recaptcha-anchor" role="checkbox" aria-checked="false" tabindex="0"
style="display:inline-block;width:24px;height:24px;border:2px solid #555;vertical-align:middle"></span> I'm not a robot`,
    `document.getElementById("recaptcha-anchor").addEventListener("click", async (ev) => {
  ${
    trusts
      ? `const { token } = await (await fetch("${base(name)}/captcha/token", { method: "POST" })).json();
  ev.target.setAttribute("aria-checked", "true");
  parent.postMessage({ recaptchaToken: token }, "*");`
      : `parent.postMessage({ recaptchaChallenge: true }, "*");`
  }
});`,
  );

const PAGE_SCRIPT = (name: string) => `window.addEventListener("message", (ev) => {
  if (ev.data.recaptchaToken) document.querySelector("[name=g-recaptcha-response]").value = ev.data.recaptchaToken;
  if (ev.data.recaptchaChallenge) document.body.insertAdjacentHTML("beforeend",
    '<iframe title="recaptcha challenge expires in two minutes" src="${base(name)}/recaptcha/api2/bframe" width="400" height="480" style="position:absolute;top:4rem;border:1px solid #ccc;background:#fff"></iframe>');
});`;

function checkboxCase(accounts: Accounts, name: string, trusts: boolean): Router {
  const r = formCase(
    accounts,
    name,
    (error) =>
      page(
        "Sign in",
        `<h1>Sign in</h1>${plainForm(
          name,
          error,
          `<div class="g-recaptcha" data-sitekey="6Lc_${name}">
<iframe title="reCAPTCHA" src="${base(name)}/recaptcha/api2/anchor" width="304" height="78" style="border:0"></iframe>
<textarea name="g-recaptcha-response" style="display:none"></textarea></div>`,
        )}`,
        PAGE_SCRIPT(name),
      ),
    { gate: checkCaptcha(name) },
  );
  r.get(`${base(name)}/recaptcha/api2/anchor`, (_req, res) => res.type("html").send(anchorPage(name, trusts)));
  r.get(`${base(name)}/recaptcha/api2/bframe`, (_req, res) =>
    res
      .type("html")
      .send(
        page(
          "reCAPTCHA challenge",
          `<p>Select all images with traffic lights</p><div style="display:grid;grid-template-columns:repeat(3,80px);gap:4px">${'<div style="height:80px;background:#9ab"></div>'.repeat(
            9,
          )}</div><button>Verify</button>`,
        ),
      ),
  );
  captchaService(r, name);
  return r;
}

/** A reCAPTCHA checkbox that passes when ticked, as it does for a browser with a good reputation. */
const captchaCheckbox = (accounts: Accounts) => checkboxCase(accounts, "captcha-checkbox", true);

/** A reCAPTCHA checkbox that answers the tick with an image challenge: a person must solve it. */
const captcha = (accounts: Accounts) => checkboxCase(accounts, "captcha", false);

export const captchaCheckboxCase = defineCase({
  router: ({ accounts }) => captchaCheckbox(accounts),
  cases: [standard("captcha-checkbox")],
});

export const captchaCase = defineCase({
  router: ({ accounts }) => captcha(accounts),
  cases: [captchaBlocked("captcha")],
});
