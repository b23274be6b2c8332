import { escapeHtml as h } from "../accounts";
import { token } from "./store";

// Markup after github.com's sign-in pages (2024/25): Rails forms with an authenticity token, Primer classes,
// the ids and names GitHub uses, and errors in a flash banner above the form.

const STYLE = `body{font-family:-apple-system,"Segoe UI",sans-serif;background:#f6f8fa;margin:0}
.auth-form{max-width:340px;margin:2rem auto}.auth-form-body{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:16px}
.form-control{display:block;width:100%;margin:.3rem 0 1rem}.btn{padding:5px 16px;border-radius:6px;border:1px solid #d0d7de;cursor:pointer}
.btn-primary{background:#1f883d;color:#fff}.flash-error{background:#ffebe9;border:1px solid #ff8182;padding:16px;margin-bottom:1rem}`;

export function shell(title: string, body: string, script = ""): string {
  return `<!doctype html><html lang="en" data-color-mode="auto"><head><meta charset="utf-8"><title>${h(title)}</title>
<style>${STYLE}</style></head><body class="logged-out env-production page-responsive session-authentication">
<div class="header header-logged-out width-full pt-5 pb-4" role="banner"><a class="header-logo" href="/" aria-label="Homepage"><svg height="48" aria-hidden="true" viewBox="0 0 24 24" width="48"></svg></a></div>
<main>${body}</main>${script ? `<script>${script}</script>` : ""}</body></html>`;
}

const flash = (message?: string) =>
  message
    ? `<div id="js-flash-container" class="flash-container" data-turbo-replace><div class="flash flash-full flash-error" role="alert"><div class="px-2"><button class="flash-close js-flash-close" type="button" aria-label="Dismiss this message">×</button><div aria-atomic="true" role="alert" class="js-flash-alert">${h(message)}</div></div></div></div>`
    : "";

const authenticity = () => `<input type="hidden" name="authenticity_token" value="${token()}" autocomplete="off">`;

export function loginPage(returnTo: string, app: string | undefined, error?: string, login = ""): string {
  return shell(
    "Sign in to GitHub · GitHub",
    `<div class="auth-form px-3" id="login">
<div class="auth-form-header p-0"><h1>Sign in to GitHub</h1>${app ? `<p class="mb-0">to continue to <strong>${h(app)}</strong></p>` : ""}</div>
${flash(error)}
<div class="auth-form-body mt-3">
<form data-turbo="false" action="/session" accept-charset="UTF-8" method="post">${authenticity()}
<label for="login_field">Username or email address</label>
<input type="text" name="login" id="login_field" class="form-control input-block js-login-field" autocapitalize="off" autocorrect="off" autocomplete="username" autofocus="autofocus" required="required" value="${h(login)}">
<div class="position-relative"><label for="password">Password</label>
<input type="password" name="password" id="password" class="form-control form-control input-block js-password-field" autocomplete="current-password" required="required">
<a class="label-link position-absolute top-0 right-0" id="forgot-password" tabindex="0" href="/password_reset">Forgot password?</a>
<input type="hidden" name="return_to" id="return_to" value="${h(returnTo)}" autocomplete="off" class="form-control">
<input type="hidden" name="webauthn-conditional" value="undefined">
<input type="submit" name="commit" value="Sign in" class="btn btn-primary btn-block js-sign-in-button" data-disable-with="Signing in…" data-signin-label="Sign in" data-sso-label="Sign in with your identity provider">
</div></form>
<div class="login-callout mt-3"><p class="mt-0 mb-0 text-center">or</p><button type="button" class="btn btn-block js-webauthn-login-button">Sign in with a passkey</button></div></div>
<div class="login-callout mt-3"><p>New to GitHub? <a href="/signup?return_to=${encodeURIComponent(returnTo)}">Create an account</a></p></div></div>`,
  );
}

export function twoFactorPage(error?: string): string {
  return shell(
    "Two-factor authentication · GitHub",
    `<div class="auth-form px-3" id="login">
<div class="auth-form-header p-0"><h1>Two-factor authentication</h1></div>
${flash(error)}
<div class="auth-form-body mt-3">
<form action="/sessions/two-factor" accept-charset="UTF-8" method="post" class="js-two-factor-form">${authenticity()}
<label for="app_totp">Authentication code</label>
<input type="text" name="app_otp" id="app_totp" class="form-control input-block" autocomplete="one-time-code" inputmode="numeric" pattern="([0-9]{6})|([0-9a-fA-F]{5}-?[0-9a-fA-F]{5})" placeholder="XXXXXX" aria-describedby="app-totp-hint" required autofocus>
<button type="submit" class="btn-primary btn btn-block" data-disable-with="Verifying…">Verify</button>
<p id="app-totp-hint" class="mt-3">Open your two-factor authenticator (TOTP) app or browser extension to view your authentication code.</p>
</form></div>
<div class="mt-3"><p>Having problems? <a href="/sessions/two-factor/recovery">Use a recovery code</a></p></div></div>`,
  );
}

export interface AuthorizeFields {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
}

/** GitHub's authorize page; its green button starts disabled and is enabled by script a moment later (anti-clickjacking). */
export function authorizePage(app: string, owner: string, user: string, f: AuthorizeFields): string {
  const hidden = Object.entries({ client_id: f.clientId, redirect_uri: f.redirectUri, state: f.state, scope: f.scope })
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${h(v)}">`)
    .join("");
  return shell(
    `Authorize application`,
    `<div class="px-3 mt-5"><div class="text-center"><h2 class="f2 text-normal">Authorize ${h(app)}</h2></div>
<div class="Box color-shadow-small"><div class="Box-header"><p><strong>${h(app)}</strong> by <strong><a href="/${h(owner)}">${h(owner)}</a></strong> wants to access your <strong>${h(user)}</strong> account</p></div>
<div class="Box-body"><div class="permission-title"><strong>Email addresses</strong> (read-only)</div><p>View your email addresses</p></div>
<div class="Box-footer"><form action="/login/oauth/authorize" accept-charset="UTF-8" method="post">${authenticity()}${hidden}
<div class="d-flex"><button name="authorize" value="0" type="submit" class="btn width-full ws-normal">Cancel</button>
<button name="authorize" value="1" type="submit" class="js-oauth-authorize-btn btn btn-primary width-full ws-normal" disabled="disabled">Authorize ${h(owner)}</button></div>
<p class="text-small mt-2">Authorizing will redirect to <strong>${h(new URL(f.redirectUri).origin)}</strong></p></form></div></div></div>`,
    `setTimeout(() => document.querySelector(".js-oauth-authorize-btn").removeAttribute("disabled"), 300);`,
  );
}

export const notFoundPage = () =>
  shell("Page not found · GitHub", `<h1>404</h1><p>This is not the web page you are looking for.</p>`);
