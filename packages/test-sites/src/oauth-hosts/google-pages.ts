import { escapeHtml as h } from "../accounts";

// Markup after Google's sign-in pages (v3, 2024/25): their ids, names, labels and texts, Material buttons
// (a <button> with the label in a span, no <form> submit), and steps driven by script, as on the real site.

const STYLE = `body{font-family:Roboto,arial,sans-serif;background:#f0f4f9;margin:0}
main{background:#fff;border-radius:28px;max-width:56rem;margin:4rem auto;padding:2.25rem;display:flex;gap:2rem}
.VfPpkd-LgbsSe{background:#0b57d0;color:#fff;border:0;border-radius:20px;padding:.6rem 1.5rem;cursor:pointer}
.ksBjEc{background:none;color:#0b57d0}.o6cuMc{color:#b3261e;font-size:12px}.o6cuMc:empty{display:none}
ul{list-style:none;padding:0}li>[role=link]{padding:.8rem;border-bottom:1px solid #ddd;cursor:pointer}`;

function shell(title: string, body: string, script = ""): string {
  return `<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><title>${h(title)}</title>
<style>${STYLE}</style></head><body><div id="initialView"><main class="tOTBe" role="main">
<div class="Wf6lSd"><svg aria-hidden="true" viewBox="0 0 40 48" width="48" height="48"><title>Google</title></svg>${body}</div>
</main></div>${script ? `<script>${STEP_SCRIPT}${script}</script>` : ""}</body></html>`;
}

// Google's pages post each step in the background and then move the page on: no form submission.
const STEP_SCRIPT = `
const TL = new URLSearchParams(location.search).get("TL");
async function step(path, body, onError) {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ TL, ...body }) });
  const answer = await res.json();
  if (answer.next) { location.assign(answer.next); return; }
  onError(answer.error);
}
function showError(input, text) {
  const box = document.querySelector(".o6cuMc");
  box.textContent = text;
  input.setAttribute("aria-invalid", "true");
  input.focus();
}
function onNext(buttonBox, input, send) {
  document.querySelector(buttonBox + " button").addEventListener("click", send);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); send(); } });
}`;

const heading = (text: string, sub = "") =>
  `<h1 class="vAV9bf" data-a11y-title-piece id="headingText"><span jsslot>${h(text)}</span></h1>` +
  (sub ? `<div class="gNJDp" id="headingSubtext"><span jsslot>${sub}</span></div>` : "");

const toContinue = (app: string) => `to continue to <a href="#" class="WpHeLc" jsname="hSRGPd">${h(app)}</a>`;

const nextButton = (id: string, label = "Next") =>
  `<div class="XOrBDc"><div class="TNTaPb" id="${id}"><div class="FliLIb"><button class="VfPpkd-LgbsSe VfPpkd-LgbsSe-OWXEXe-k8QpJ nCP5yc" jsname="LgbsSe" type="button"><div class="VfPpkd-Jh9lGc"></div><span jsname="V67aGc" class="VfPpkd-vQzf8d">${h(label)}</span></button></div></div></div>`;

const textButton = (label: string) =>
  `<button class="VfPpkd-LgbsSe ksBjEc" jsname="Cuz2Ue" type="button"><span jsname="V67aGc" class="VfPpkd-vQzf8d">${h(label)}</span></button>`;

const errorBox = `<div class="Ekjuhf Jj6Lae" aria-live="assertive" aria-atomic="true"><div class="o6cuMc Jj6Lae"></div></div>`;

const accountChip = (email: string) =>
  `<div class="YZrg6 HnRr5d" tabindex="0" role="link" aria-label="Selected. ${h(email)}" jsname="af8ijd"><div jsname="bQIQze" class="KlxHOd" data-profile-identifier>${h(email)}</div></div>`;

export function identifierPage(app: string): string {
  return shell(
    "Sign in - Google Accounts",
    `${heading("Sign in", toContinue(app))}
<section><div class="rFrNMe" jscontroller="pxq3x"><div class="aCsJod oJeWuf"><div class="Xb9hP">
<input type="email" class="whsOnd zHQkBf" jsname="YPqjbf" autocomplete="username" spellcheck="false" tabindex="0" aria-label="Email or phone" name="identifier" autocapitalize="none" id="identifierId" dir="ltr" data-initial-dir="ltr" data-initial-value="">
<div jsname="YRMmle" class="AxOyFc snByac" aria-hidden="true">Email or phone</div></div></div>${errorBox}</div>
<div class="PrDSKc">${textButton("Forgot email?")}</div>
<div class="dMNVAe">Not your computer? Use Guest mode to sign in privately. <a href="#">Learn more about using Guest mode</a></div></section>
<div class="JYXaTc">${nextButton("identifierNext")}<div class="FO2vFd">${textButton("Create account")}</div></div>`,
    `const input = document.getElementById("identifierId");
onNext("#identifierNext", input, () => {
  if (!input.value.trim()) return showError(input, "Enter an email or phone number");
  step("/v3/signin/_/lookup", { identifier: input.value }, (e) => showError(input, e));
});`,
  );
}

export function passwordPage(email: string): string {
  return shell(
    "Sign in - Google Accounts",
    `${heading("Welcome")}<div class="Ahygpe">${accountChip(email)}</div>
<section><div class="rFrNMe"><div class="Xb9hP">
<input type="password" class="whsOnd zHQkBf" jsname="YPqjbf" autocomplete="current-password" spellcheck="false" tabindex="0" aria-label="Enter your password" name="Passwd" autocapitalize="off" dir="ltr" data-initial-dir="ltr" data-initial-value="">
<div jsname="YRMmle" class="AxOyFc snByac" aria-hidden="true">Enter your password</div></div>${errorBox}</div>
<div class="VfPpkd-dgl2Hf-ppHlrf-sM5MNb"><input type="checkbox" class="VfPpkd-muHVFf-bMcfAe" jsname="YPqjbf" id="selectionc1"><label for="selectionc1" id="selectionc0">Show password</label></div></section>
<div class="JYXaTc">${nextButton("passwordNext")}<div class="FO2vFd">${textButton("Forgot password?")}</div></div>`,
    `const input = document.querySelector("input[name=Passwd]");
document.getElementById("selectionc1").addEventListener("change", (e) => { input.type = e.target.checked ? "text" : "password"; });
onNext("#passwordNext", input, () => {
  if (!input.value) return showError(input, "Enter a password");
  step("/v3/signin/_/challenge/pwd", { password: input.value }, (e) => showError(input, e));
});`,
  );
}

export function totpPage(email: string): string {
  return shell(
    "2-Step Verification",
    `${heading("2-Step Verification", "To help keep your account safe, Google wants to make sure it's really you trying to sign in")}
<div class="Ahygpe">${accountChip(email)}</div>
<section><div class="dMNVAe"><span>Get a verification code from the <strong>Google Authenticator</strong> app</span></div>
<div class="rFrNMe"><div class="Xb9hP">
<input type="tel" class="whsOnd zHQkBf" jsname="YPqjbf" autocomplete="one-time-code" pattern="[0-9 ]*" tabindex="0" aria-label="Enter code" name="totpPin" id="totpPin" dir="ltr" data-initial-value="">
<div jsname="YRMmle" class="AxOyFc snByac" aria-hidden="true">Enter code</div></div>${errorBox}</div>
<div><input type="checkbox" id="dontAsk" checked><label for="dontAsk">Don't ask again on this device</label></div></section>
<div class="JYXaTc">${nextButton("totpNext")}<div class="FO2vFd">${textButton("Try another way")}</div></div>`,
    `const input = document.getElementById("totpPin");
onNext("#totpNext", input, () => {
  if (!input.value.trim()) return showError(input, "Enter a code");
  step("/v3/signin/_/challenge/totp", { code: input.value }, (e) => showError(input, e));
});`,
  );
}

export function chooserPage(app: string, accounts: Array<{ email: string; name: string }>): string {
  const items = accounts
    .map(
      (a, i) =>
        `<li class="JDAKTe"><div class="VV3oRb YZVTmd SmR8" jsname="MBVUVe" role="link" tabindex="0" data-authuser="${i}" data-identifier="${h(a.email)}" data-email="${h(a.email)}"><div class="rWGfZ"><div class="pGzURd" jsname="V1ur5d">${h(a.name)}</div><div class="yAlK0b" jsname="bQIQze" data-email="${h(a.email)}">${h(a.email)}</div></div></div></li>`,
    )
    .join("");
  return shell(
    "Sign in - Google Accounts",
    `${heading("Choose an account", toContinue(app))}<div class="o6cuMc"></div>
<ul class="OVnw0d">${items}<li class="JDAKTe eARute W7Aapd zpCp3 SmR8" jsname="rwl3qc"><div class="VV3oRb YZVTmd SmR8" role="link" tabindex="0" id="useAnother"><div class="BHzsHc">Use another account</div></div></li></ul>`,
    `document.querySelectorAll("[data-identifier]").forEach((el) => el.addEventListener("click", () =>
  step("/v3/signin/_/choose", { identifier: el.dataset.identifier }, (e) => { document.querySelector(".o6cuMc").textContent = e; })));
document.getElementById("useAnother").addEventListener("click", () => location.assign("/v3/signin/identifier?TL=" + encodeURIComponent(TL)));`,
  );
}

/** "Sign in to <app>" for basic scopes, "<app> wants to access your Google Account" for more. */
export function consentPage(app: string, email: string, tl: string, basic: boolean): string {
  const title = basic ? `Sign in to ${app}` : `${app} wants to access your Google Account`;
  return shell(
    title,
    `${heading(title)}<div class="Ahygpe">${accountChip(email)}</div>
<p>By continuing, Google will share your name, email address, language preference, and profile picture with ${h(app)}.</p>
<form method="post" action="/signin/oauth/id"><input type="hidden" name="TL" value="${h(tl)}">
<div class="XOrBDc"><button class="VfPpkd-LgbsSe ksBjEc" type="submit" name="submit_access" value="false" id="submit_deny_access"><span class="VfPpkd-vQzf8d">Cancel</span></button>
<button class="VfPpkd-LgbsSe" type="submit" name="submit_access" value="true" id="submit_approve_access"><span class="VfPpkd-vQzf8d">Continue</span></button></div></form>`,
  );
}

export function rejectedPage(email: string): string {
  return shell(
    "Couldn't sign you in",
    `${heading("Couldn't sign you in")}<div class="Ahygpe">${accountChip(email)}</div>
<section><p>This browser or app may not be secure. <a href="https://support.google.com/accounts/answer/7675428">Learn more</a></p>
<p>Try using a different browser. If you're already using a supported browser, you can try again to sign in.</p></section>
<div class="JYXaTc"><a href="/v3/signin/identifier">Try again</a></div>`,
  );
}

/** Google's own error page for a request it will not start (unknown client, unregistered redirect URI). */
export function authErrorPage(code: string, detail: string): string {
  return shell(
    "Error 400",
    `${heading("Access blocked: Authorization Error")}<p>${h(detail)}</p><p><strong>Error 400: ${h(code)}</strong></p>`,
  );
}
