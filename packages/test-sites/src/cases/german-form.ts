import type { Router } from "express";
import { type Accounts, escapeHtml, page } from "../accounts";
import { formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "german-form";

/** A German form whose fields say what they are only in their labels (names "feld1", "feld2"). */
function germanForm(accounts: Accounts): Router {
  return formCase(
    accounts,
    NAME,
    (error) =>
      page(
        "Anmelden",
        `<h1>Anmelden</h1>${error ? `<div class="meldung fehler" role="alert">${escapeHtml(error)}</div>` : ""}
<form method="post">
  <label for="f1">Benutzername</label> <input id="f1" name="feld1">
  <label for="f2">Kennwort</label> <input id="f2" name="feld2" type="password">
  <button type="submit">Anmelden</button> <a href="#">Kennwort vergessen?</a>
</form>`,
      ).replace('lang="en"', 'lang="de"'),
    {
      fields: { user: "feld1", pass: "feld2" },
      messages: { wrong: "Benutzername oder Kennwort ist ungültig.", locked: "Ihr Konto wurde gesperrt." },
    },
  );
}

export const germanFormCase = defineCase({
  router: ({ accounts }) => germanForm(accounts),
  cases: [standard(NAME)],
});
