import type { Router } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

interface Locale {
  name: string;
  lang: string;
  title: string;
  user: string;
  pass: string;
  button: string;
  wrong: string;
  /** How the fields are named: by <label>, by placeholder only, or by aria-label only. */
  hint: "label" | "placeholder" | "aria";
}

// Neutral field names (a, b): the page's own words are the only clue.
const LOCALES: Locale[] = [
  {
    name: "french-placeholders",
    lang: "fr",
    title: "Connexion",
    user: "Adresse e-mail",
    pass: "Mot de passe",
    button: "Se connecter",
    wrong: "Identifiants invalides.",
    hint: "placeholder",
  },
  {
    name: "spanish-labels",
    lang: "es",
    title: "Iniciar sesión",
    user: "Correo electrónico",
    pass: "Contraseña",
    button: "Iniciar sesión",
    wrong: "Correo o contraseña incorrectos.",
    hint: "label",
  },
  {
    name: "portuguese-aria",
    lang: "pt",
    title: "Entrar",
    user: "Usuário",
    pass: "Senha",
    button: "Entrar",
    wrong: "Usuário ou senha inválidos.",
    hint: "aria",
  },
  {
    name: "italian-labels",
    lang: "it",
    title: "Accedi",
    user: "Nome utente",
    pass: "Parola d'ordine",
    button: "Accedi",
    wrong: "Nome utente o password errati.",
    hint: "label",
  },
  {
    name: "dutch-placeholders",
    lang: "nl",
    title: "Inloggen",
    user: "Gebruikersnaam",
    pass: "Wachtwoord",
    button: "Inloggen",
    wrong: "Gebruikersnaam of wachtwoord onjuist.",
    hint: "placeholder",
  },
];

function field(locale: Locale, id: string, text: string, type: string): string {
  if (locale.hint === "label")
    return `<label for="${id}">${escapeHtml(text)}</label> <input id="${id}" name="${id}" type="${type}">`;
  if (locale.hint === "placeholder") return `<input name="${id}" type="${type}" placeholder="${escapeHtml(text)}">`;
  return `<input name="${id}" type="${type}" aria-label="${escapeHtml(text)}">`;
}

/** One login form per language (fr, es, pt, it, nl); only the page's own words tell the fields apart. */
function localizedForms(accounts: Accounts): Router[] {
  return LOCALES.map((locale) =>
    formCase(
      accounts,
      locale.name,
      (error) =>
        page(
          locale.title,
          `<h1>${escapeHtml(locale.title)}</h1>${errorAlert(error)}
<form method="post"><div>${field(locale, "a", locale.user, "text")}</div><div>${field(locale, "b", locale.pass, "password")}</div>
<button type="submit">${escapeHtml(locale.button)}</button></form>`,
        ).replace('lang="en"', `lang="${locale.lang}"`),
      { fields: { user: "a", pass: "b" }, messages: { wrong: locale.wrong, locked: locale.wrong } },
    ),
  );
}

const LOCALIZED_CASES = LOCALES.map((l) => l.name);

export const localizedFormCases = defineCase({
  router: ({ accounts }) => localizedForms(accounts),
  cases: LOCALIZED_CASES.map((name) => standard(name)),
});
