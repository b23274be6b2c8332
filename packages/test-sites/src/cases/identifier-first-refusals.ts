import { Router, urlencoded } from "express";
import { type Accounts, escapeHtml, page, readCookie } from "../accounts";
import { passwordStep } from "./identifier-first";
import { base, sessionCookie } from "./kit";
import { defineCase, standard } from "./login-case";

/**
 * Identifier-first pages that refuse an unknown account on the first step in plain text, no alert markup:
 * the first step shown again with a paragraph, or a redirect back to it with the words under the field.
 */
interface FirstStepRefusal {
  name: string;
  via: "rerender" | "redirect";
  words: string;
  /** The first step's form, with the site's words where it puts them (`e`: escaped, or ""). */
  form: (action: string, e: string) => string;
}

const STEPS: FirstStepRefusal[] = [
  {
    name: "first-step-unknown-paragraph",
    via: "rerender",
    words: "We couldn't find an account with that email address.",
    form: (
      action,
      e,
    ) => `<h1>Sign in</h1><p>Use the email address you signed up with.</p>${e ? `<p class="notice">${e}</p>` : ""}
<form method="post" action="${action}"><label>Email <input type="email" name="username" autocomplete="email"></label><button type="submit">Next</button></form>`,
  },
  {
    name: "first-step-unknown-redirect",
    via: "redirect",
    words: "No account found for that email. Check the spelling or create an account.",
    form: (action, e) => `<h1>Welcome back</h1>
<form method="post" action="${action}"><div class="field"><label for="login">Email or username</label><input id="login" name="username" type="text">
${e ? `<span class="field-error">${e}</span>` : ""}</div><button type="submit">Continue</button></form><p>New here? <a href="#signup">Create an account</a></p>`,
  },
];

function firstStepRefusal(accounts: Accounts, step: FirstStepRefusal): Router {
  const r = Router();
  const name = step.name;
  const flash = `${sessionCookie(name)}_flash`;
  const first = (words = "") => page("Sign in", step.form(`${base(name)}/next`, escapeHtml(words)));
  r.get(`${base(name)}/login`, (req, res) => {
    const words = readCookie(req.headers.cookie, flash) ?? "";
    if (words) res.clearCookie(flash, { path: "/" });
    res.type("html").send(first(words));
  });
  const passwordPage = passwordStep(r, accounts, name);
  r.post(`${base(name)}/next`, urlencoded({ extended: false }), (req, res) => {
    const username = String(req.body?.username ?? "").trim();
    if (accounts.hasUser(username)) return res.type("html").send(passwordPage(username));
    accounts.noteAttempt(name, username);
    if (step.via === "redirect")
      return res.cookie(flash, step.words, { path: "/" }).redirect(302, `${base(name)}/login`);
    res.type("html").send(first(step.words));
  });
  return r;
}

/** Identifier-first logins that say "no such account" on the first step, in plain text. */
const identifierFirstRefusals = (accounts: Accounts): Router[] => STEPS.map((step) => firstStepRefusal(accounts, step));

/** The catalog's entries: the site's words for an unknown account, which the verdict must quote. */
const IDENTIFIER_FIRST_REFUSAL_CASES = STEPS.map((s) => ({ name: s.name, unknownIdentifier: s.words }));

export const identifierFirstRefusalCases = defineCase({
  router: ({ accounts }) => identifierFirstRefusals(accounts),
  cases: IDENTIFIER_FIRST_REFUSAL_CASES.map(({ name, unknownIdentifier }) => standard(name, { unknownIdentifier })),
});
