import type { Router } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { base, errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

interface IdentifierShape {
  name: string;
  lang: string;
  /** The login form's identifier field, as the site writes it (neutral name "a"). */
  field: string;
  button: string;
  /** Another form on the same page whose field looks more like a username than the login's own. */
  beside: (name: string) => string;
}

const siteSearch = (name: string) =>
  `<form action="${base(name)}/search" role="search"><input type="search" name="q" placeholder="Search the site"><button>Search</button></form>`;
const resetByEmail = (label: string, button: string) => (name: string) =>
  `<form method="post" action="${base(name)}/reset"><label>${escapeHtml(label)} <input type="email" name="email" autocomplete="email"></label>
<button type="submit">${escapeHtml(button)}</button></form>`;

// Account and contract numbers, typed as search or telephone fields and named in the site's own words; the
// page also has a field in another form that an identifier score alone would prefer.
const SHAPES: IdentifierShape[] = [
  {
    name: "identifier-type-search",
    lang: "en",
    field: `<label>Account number <input type="search" name="a"></label>`,
    button: "Sign in",
    beside: siteSearch,
  },
  {
    name: "identifier-type-tel",
    lang: "en",
    field: `<label>Contract number <input type="tel" name="a" inputmode="numeric"></label>`,
    button: "Log in",
    beside: resetByEmail("Forgot your password? Your email", "Send reset link"),
  },
  {
    name: "identifier-perm-number",
    lang: "en",
    field: `<label for="a">Perm number</label> <input id="a" name="a">`,
    button: "Submit",
    beside: resetByEmail("Email address", "Email me my Perm number"),
  },
  {
    name: "identifier-kundennummer",
    lang: "de",
    field: `<label for="a">Kundennummer</label> <input id="a" name="a" type="tel">`,
    button: "Anmelden",
    beside: resetByEmail("Passwort vergessen? E-Mail-Adresse", "Link senden"),
  },
  {
    name: "identifier-numero-contrat",
    lang: "fr",
    field: `<input name="a" placeholder="Nº de contrat">`,
    button: "Valider",
    beside: resetByEmail("Identifiant oublié ? Votre adresse e-mail", "Recevoir mon identifiant"),
  },
];

/** Login forms whose identifier is an account or contract number in an unusual field. */
function identifierFields(accounts: Accounts): Router[] {
  return SHAPES.map((shape) =>
    formCase(
      accounts,
      shape.name,
      (error) =>
        page(
          "Customer area",
          `${shape.beside(shape.name)}<h1>Customer area</h1>${errorAlert(error)}
<form method="post" action="${base(shape.name)}/login"><div>${shape.field}</div>
<div><label>Password <input type="password" name="b"></label></div>
<button type="submit">${escapeHtml(shape.button)}</button></form>`,
        ).replace('lang="en"', `lang="${shape.lang}"`),
      { fields: { user: "a", pass: "b" } },
    ),
  );
}

const IDENTIFIER_FIELD_CASES = SHAPES.map((s) => s.name);

export const identifierFieldCases = defineCase({
  router: ({ accounts }) => identifierFields(accounts),
  cases: IDENTIFIER_FIELD_CASES.map((name) => standard(name)),
});
