import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { accountRoute, base, errorAlert, MESSAGES, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

interface FirstStep {
  name: string;
  lang: string;
  /** The first step's form body: one visible identifier field (posted as `username`) and its control. */
  form: string;
  script?: string;
}

// First steps whose field does not say "username" in markup (no autocomplete, plain type=text), each with
// one of the patterns measured on real identifier-first pages.
const STEPS: FirstStep[] = [
  {
    name: "first-step-decoy-password",
    lang: "fr",
    form: `<input type="text" name="username" placeholder="Adresse e-mail">
<input type="password" name="_notUsed" style="display:none" tabindex="-1" aria-hidden="true">
<button type="submit">Suivant</button>`,
  },
  {
    name: "first-step-hidden-username",
    lang: "en",
    form: `<input type="text" name="username" style="display:none">
<input type="text" id="identifierId" aria-label="Email or phone">
<button type="submit">Next</button>`,
    // The visible field is copied into the hidden one the server reads.
    script: `document.getElementById("f").addEventListener("submit", () => { document.getElementById("f").username.value = document.getElementById("identifierId").value; });`,
  },
  {
    name: "first-step-button-continue",
    lang: "en",
    form: `<label>Username <input type="text" name="username"></label>
<button type="button" id="continue">Continue</button>
<input type="submit" id="real-submit" style="display:none">`,
    script: `document.getElementById("continue").addEventListener("click", () => {
  const f = document.getElementById("f");
  if (f.username.value) f.requestSubmit(document.getElementById("real-submit"));
});`,
  },
  {
    name: "first-step-input-submit",
    lang: "de",
    form: `<label>E-Mail-Adresse <input type="text" name="username"></label> <input type="submit" value="Weiter">`,
  },
];

/**
 * The second step of an identifier-first login: the password page for the username the first step took,
 * the session it starts, and the account page. Returns the password page, for the first step to show.
 */
export function passwordStep(
  r: Router,
  accounts: Accounts,
  name: string,
): (username: string, error?: string) => string {
  const passwordPage = (username: string, error?: string) =>
    page(
      "Enter your password",
      `<h1>Enter your password</h1><p>${escapeHtml(username)}</p>${errorAlert(error)}
<form method="post" action="${base(name)}/session">
  <input type="hidden" name="username" value="${escapeHtml(username)}">
  <label>Password <input name="password" type="password"></label>
  <button type="submit">Sign in</button>
</form>`,
    );
  r.post(`${base(name)}/session`, urlencoded({ extended: false }), (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt(name, username, password))
      return res.type("html").send(passwordPage(username, MESSAGES.wrong));
    startSession(res, accounts, name, username);
    res.redirect(302, `${base(name)}/account`);
  });
  accountRoute(r, accounts, name);
  return passwordPage;
}

function identifierFirst(accounts: Accounts, step: FirstStep): Router {
  const r = Router();
  const name = step.name;
  r.get(`${base(name)}/login`, (_req, res) => {
    res
      .type("html")
      .send(
        page(
          "Sign in",
          `<h1>Sign in</h1><form id="f" method="post" action="${base(name)}/password">${step.form}</form>`,
          step.script,
        ).replace('lang="en"', `lang="${step.lang}"`),
      );
  });
  const passwordPage = passwordStep(r, accounts, name);
  r.post(`${base(name)}/password`, urlencoded({ extended: false }), (req, res) => {
    res.type("html").send(passwordPage(String(req.body?.username ?? "")));
  });
  return r;
}

/** Identifier-first logins: the first step asks only for the email or username, the password comes next. */
const identifierFirstSteps = (accounts: Accounts): Router[] => STEPS.map((step) => identifierFirst(accounts, step));

const IDENTIFIER_FIRST_CASES = STEPS.map((s) => s.name);

export const identifierFirstCases = defineCase({
  router: ({ accounts }) => identifierFirstSteps(accounts),
  cases: IDENTIFIER_FIRST_CASES.map((name) => standard(name)),
});
