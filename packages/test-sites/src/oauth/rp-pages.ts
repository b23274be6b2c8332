import { escapeHtml, page } from "../accounts";
import { errorAlert } from "../cases/kit";
import { keep } from "../signup/kit";

/** A relying-party site's identity: its name, what its account page is about, and its cookies' prefix. */
export interface SiteIdentity {
  /** Cookie prefix; each site's cookie names differ from the other site's and from Acme ID's (`_session`, `_interaction*`). */
  key: string;
  name: string;
  /** The account page's heading ("Your notes"). */
  heading: string;
}

/** The sites' messages, word for word. */
export const SITE_MESSAGES = {
  notLinked: (site: SiteIdentity) => `No ${site.name} account is linked to this Acme ID account. Sign up first.`,
  cancelled: "You cancelled signing in with Acme ID.",
  failed: "Signing in with Acme ID failed. Please try again.",
  wrongPassword: "Incorrect email or password.",
  usernameMissing: "Please choose a username.",
  notConfigured: (provider: string) => `Sign in with ${provider} is not configured for this site.`,
};

const STYLE = `<style>.button{display:block;margin:.5rem 0;padding:.5rem;border:1px solid #888;border-radius:4px;text-align:center;
text-decoration:none;color:#222;background:#f4f4f4;font:inherit;width:100%;cursor:pointer}.divider{text-align:center;color:#888}</style>`;
const sitePage = (site: SiteIdentity, title: string, body: string, script = "") =>
  page(`${title} · ${site.name}`, `${STYLE}<header><strong>${escapeHtml(site.name)}</strong></header>${body}`, script);

export type LoginVariant = "login" | "login-popup" | "login-no-provider";

const passwordForm = (variant: LoginVariant) => `<form method="post" action="/${variant}">
  <label>Email <input type="email" name="email" autocomplete="username"></label>
  <label>Password <input type="password" name="password" autocomplete="current-password"></label>
  <button type="submit">Log in</button>
</form>`;

// The popup variant: the button opens Acme ID in a popup; the popup's last page posts the outcome back here.
const POPUP_SCRIPT = `
document.getElementById("acme").addEventListener("click", () => window.open("/auth/acme?popup=1", "acme", "width=500,height=600"));
window.addEventListener("message", (event) => {
  if (event.origin !== location.origin || !event.data || event.data.type !== "acme-login") return;
  if (event.data.ok) { location.href = "/account"; return; }
  const alert = document.getElementById("popup-error");
  alert.textContent = event.data.error;
  alert.hidden = false;
});`;

/**
 * The login page: a password form, then "or" and the sign-in-with buttons (which ones depends on the
 * variant); with `passkeySignIn` (the ceremony's script), "Sign in with a passkey" too.
 */
export function siteLoginPage(
  site: SiteIdentity,
  variant: LoginVariant,
  error?: string,
  passkeySignIn?: string,
): string {
  const acme =
    variant === "login-no-provider"
      ? ""
      : variant === "login-popup"
        ? `<button type="button" class="button" id="acme">Continue with Acme ID</button><p class="error" role="alert" id="popup-error" hidden></p>`
        : `<a class="button" href="/auth/acme">Continue with Acme ID</a>`;
  const others =
    variant === "login-no-provider"
      ? `<a class="button" href="/auth/google">Continue with Google</a>`
      : `<a class="button" href="/auth/google">Continue with Google</a><a class="button" href="/auth/github">Continue with GitHub</a>`;
  const passkey = passkeySignIn
    ? `<button type="button" class="button" onclick="passkeySignIn()">Sign in with a passkey</button><p id="status" role="status"></p><p id="error" class="error" role="alert" hidden></p>`
    : "";
  return sitePage(
    site,
    "Log in",
    `<h1>Log in to ${escapeHtml(site.name)}</h1>${errorAlert(error)}${passwordForm(variant)}
<p class="divider">or</p>${acme}${others}${passkey}<p>New here? <a href="/signup">Create an account</a></p>`,
    `${variant === "login-popup" ? POPUP_SCRIPT : ""}${passkeySignIn ?? ""}`,
  );
}

/** The account's security settings: its passkeys and "Add a passkey" (`addScript`: the ceremony's script). */
export function siteSecurityPage(site: SiteIdentity, passkeys: string[], addScript: string): string {
  return sitePage(
    site,
    "Security",
    `<p><a href="/account">Account</a></p><h1>Security</h1>
<h2>Passkeys</h2><ul id="passkeys">${passkeys.map((p) => `<li>Passkey added ${escapeHtml(p)}</li>`).join("")}</ul><button type="button" id="add" onclick="addPasskey()">Add a passkey</button><p id="status" role="status"></p>`,
    addScript,
  );
}

export function siteAccountPage(site: SiteIdentity, username: string, email: string | null): string {
  return sitePage(
    site,
    "Account",
    `<h1>${escapeHtml(site.heading)}</h1><p>Signed in as <span id="email">${escapeHtml(email ?? username)}</span> (${escapeHtml(username)})</p>
<ul><li>Nothing here yet.</li></ul><p><a href="/settings/security">Security settings</a></p><form method="post" action="/logout"><button type="submit">Sign out</button></form>`,
  );
}

export function siteSignupPage(site: SiteIdentity, error?: string): string {
  return sitePage(
    site,
    "Sign up",
    `<h1>Create your ${escapeHtml(site.name)} account</h1>${errorAlert(error)}
<a class="button" href="/auth/acme?intent=signup">Sign up with Acme ID</a><p>Already have an account? <a href="/login">Log in</a></p>`,
  );
}

/** The last signup step after Acme ID: what the provider did not tell the site (a username) and the terms. */
export function siteSignupFinishPage(site: SiteIdentity, email: string, error?: string, username?: string): string {
  return sitePage(
    site,
    "Finish signing up",
    `<h1>Finish creating your account</h1><p>Signing up as ${escapeHtml(email)} with Acme ID.</p>${errorAlert(error)}
<form method="post" action="/signup/finish">
  <label>Username <input name="username" autocomplete="username" required${keep(username)}></label>
  <label><input type="checkbox" name="terms" value="yes" required> I agree to the Terms</label>
  <button type="submit">Create account</button>
</form>`,
  );
}

/** The popup's last page: tells the opener how it went and closes; opened without an opener, it goes on as a page. */
export function popupResultPage(site: SiteIdentity, ok: boolean, error: string | undefined, fallback: string): string {
  const message = JSON.stringify({ type: "acme-login", ok, error: error ?? null }).replace(/</g, "\\u003c");
  return sitePage(
    site,
    ok ? "Signed in" : "Sign-in failed",
    `<p>${ok ? "Signed in. You can close this window." : escapeHtml(error ?? "")}</p>`,
    `if (window.opener) { window.opener.postMessage(${message}, location.origin); window.close(); } else { location.href = ${JSON.stringify(fallback)}; }`,
  );
}
