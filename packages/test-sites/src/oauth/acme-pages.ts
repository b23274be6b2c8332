import { escapeHtml, page } from "../accounts";
import { errorAlert } from "../cases/kit";

/** Acme ID's messages, word for word: tests (and the service's classifier) read them. */
export const ACME_MESSAGES = {
  wrongPassword: "Incorrect email or password.",
  wrongCode: "That code didn't work. Try again.",
  blockedHeading: "Couldn't sign you in",
  blocked: "This browser or app may not be secure. Try using a different browser.",
  expired: "Your sign-in request has expired. Go back to the app and try again.",
};

/** What each scope lets the app do, as consent screens word it. */
const SCOPE_TEXT: Record<string, string> = {
  openid: "Sign you in with your Acme ID",
  email: "See your email address",
  profile: "See your name",
};

// A provider's sign-in card: the brand above a heading, as Okta's, Auth0's and Keycloak's generic pages have it.
const card = (title: string, body: string) =>
  page(
    title,
    `<header><strong>Acme ID</strong></header><main>${body}</main><footer><small>Acme ID · <a href="#">Help</a> · <a href="#">Privacy</a></small></footer>`,
  );

export function loginPage(uid: string, clientName: string, error?: string, email = ""): string {
  return card(
    "Sign in to Acme ID",
    `<h1>Sign in to Acme ID</h1><p>to continue to ${escapeHtml(clientName)}</p>${errorAlert(error)}
<form method="post" action="/interaction/${uid}/login">
  <label>Email <input type="email" name="email" autocomplete="username" required${email ? ` value="${escapeHtml(email)}"` : ""}></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>`,
  );
}

export function totpPage(uid: string, error?: string): string {
  return card(
    "Two-step verification",
    `<h1>Two-step verification</h1><p>Enter the 6-digit code from your authenticator app</p>${errorAlert(error)}
<form method="post" action="/interaction/${uid}/totp">
  <label>Code <input name="code" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9]*" maxlength="6" required></label>
  <button type="submit">Verify</button>
</form>`,
  );
}

export function emailCodePage(uid: string, email: string, error?: string): string {
  return card(
    "Check your email",
    `<h1>Check your email</h1><p>We sent a code to ${escapeHtml(email)}</p>${errorAlert(error)}
<form method="post" action="/interaction/${uid}/email-code">
  <label>Code <input name="code" autocomplete="one-time-code" inputmode="numeric" maxlength="6" required></label>
  <button type="submit">Verify</button>
</form>`,
  );
}

/** The wall Google and Microsoft show a browser they distrust: no form, nothing to retry. */
export function blockedPage(): string {
  return card(
    ACME_MESSAGES.blockedHeading,
    `<h1>${ACME_MESSAGES.blockedHeading}</h1><p>${ACME_MESSAGES.blocked}</p><p><a href="#">Learn more</a></p>`,
  );
}

export function consentPage(uid: string, clientName: string, email: string, scopes: string[]): string {
  const items = scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join("");
  return card(
    "Authorize access",
    `<h1>${escapeHtml(clientName)} wants to access your Acme ID account</h1><p>${escapeHtml(email)}</p>
<p>This will allow ${escapeHtml(clientName)} to:</p><ul>${items}</ul>
<form method="post" action="/interaction/${uid}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>`,
  );
}

export function expiredPage(): string {
  return card("Sign-in expired", `<h1>Something went wrong</h1>${errorAlert(ACME_MESSAGES.expired)}`);
}

export const codeMail = (to: string, code: string) => ({
  to,
  subject: "Your Acme ID verification code",
  text: `Your Acme ID verification code is ${code}. It expires in 10 minutes.\n\nIf you did not try to sign in, someone may know your password: change it.`,
  html: `<p>Your Acme ID verification code is</p><p style="font-size:24px;letter-spacing:4px"><b>${code}</b></p><p>It expires in 10 minutes.</p>`,
});
