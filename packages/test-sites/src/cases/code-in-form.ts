import type { Router } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { base, formCase, sessionCookie, startSession } from "./kit";
import { at, defineCase, standard } from "./login-case";

const CODE_IN_FORM = {
  missing: "Please enter your OTP token.",
  wrong: "Invalid token. Please make sure you have entered it correctly.",
  password: "Please enter a correct username and password. Note that both fields may be case-sensitive.",
};

/**
 * The second factor in the password's own form, as Django's admin behind django-otp draws it (username,
 * password and "OTP Token" sent together), and as notebook hubs draw an optional "2FA code (if enabled)":
 * the password is checked first (the attempt counts), then a user with an authenticator must have sent its
 * current code; the site says so when it is missing and refuses a wrong one, in its own words, with the form
 * shown again. Users without an authenticator leave the field empty.
 */
function codeForm(accounts: Accounts, name: string, label: string, field: string): Router {
  const render = (error?: string) =>
    page(
      "Log in | Django site admin",
      `<h1>Django administration</h1>${error ? `<p class="errornote">${escapeHtml(error)}</p>` : ""}
<form action="${base(name)}/login" method="post" id="login-form">
  <div class="form-row"><label class="required" for="id_username">Username:</label> <input type="text" name="username" autocapitalize="none" autocomplete="username" maxlength="150" required id="id_username"></div>
  <div class="form-row"><label class="required" for="id_password">Password:</label> <input type="password" name="password" autocomplete="current-password" required id="id_password"></div>
  <div class="form-row"><label for="id_${field}">${escapeHtml(label)}</label> <input type="text" name="${field}" autocomplete="off" id="id_${field}"></div>
  <div class="submit-row"><input type="submit" value="Log in"></div>
</form>`,
    );
  return formCase(accounts, name, render, {
    messages: { wrong: CODE_IN_FORM.password, locked: "This account is inactive." },
    onSuccess: (req, res, username) => {
      const code = String((req.body as Record<string, string>)[field] ?? "").trim();
      if (accounts.hasTotp(username) && !code) return res.type("html").send(render(CODE_IN_FORM.missing));
      if (accounts.hasTotp(username) && !accounts.checkTotp(username, code))
        return res.type("html").send(render(CODE_IN_FORM.wrong));
      startSession(res, accounts, name, username);
      res.redirect(302, `${base(name)}/account`);
    },
  });
}

const codeInForm = (accounts: Accounts) => codeForm(accounts, "code-in-form", "OTP Token:", "otp_token");
const optionalCode = (accounts: Accounts) => codeForm(accounts, "optional-code", "2FA code (if enabled)", "twofactor");

// The authenticator's code in the password's own form (and an optional one, left empty without a secret).
export const codeInFormCases = defineCase({
  router: ({ accounts }) => [codeInForm(accounts), optionalCode(accounts)],
  cases: [
    standard("code-in-form", { totp: true, wrongCode: CODE_IN_FORM.wrong, refusal: CODE_IN_FORM.password }),
    standard("optional-code", { totp: true, wrongCode: CODE_IN_FORM.wrong }),
    standard("optional-code-none", {
      site: "optional-code",
      url: at("/cases/optional-code/login"),
      session: { cookie: sessionCookie("optional-code"), cookieDomain: "127.0.0.1" },
      account: "/cases/optional-code/account",
    }),
  ],
});

/** The code-in-form page for a caller without the secret (served by codeInFormCases' router). */
export const codeInFormNoSecretCase = defineCase({
  cases: [
    standard("code-in-form-no-secret", {
      site: "code-in-form",
      url: at("/cases/code-in-form/login"),
      expect: "mfa_required",
      session: undefined,
      wrongPassword: undefined,
      totp: true,
      withoutSecret: true,
    }),
  ],
});
