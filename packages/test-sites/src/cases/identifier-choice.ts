import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

/**
 * Login forms where the username could go in more than one field, or in one the engine could take for
 * something else, as real sites draw them:
 * - a bank's Angular form whose "user code" field is named like a code (`codeUtilisateur`), beside hidden
 *   fields: it is the identifier, not a one-time code, and the username must not be left out;
 * - a Japanese bank's branch number + account number, or a contract number instead, all `type=tel`: nothing
 *   tells which one the caller's username is for (`form_ambiguous`), until the caller names the others in
 *   additionalFields;
 * - a student portal's "Perm number" (digits only, ASP.NET's `data-val-regex-pattern`) beside an
 *   "Application ID": a username with letters breaks the first field's rule, so it goes in the second.
 */
function identifierChoice(accounts: Accounts): Router[] {
  const userCode = "identifier-user-code";
  const bank = "identifier-branch-account";
  const portal = "identifier-perm-or-application";
  return [
    formCase(
      accounts,
      userCode,
      (error) =>
        page(
          "Espace client",
          `<h1>Accéder à mes comptes</h1>${errorAlert(error)}
<form method="post" action="${base(userCode)}/login" class="ng-untouched ng-pristine" novalidate>
<input type="hidden" name="_csrf" value="k2v9"><input type="hidden" name="canal" value="WEB">
<div class="field"><input type="text" name="codeUtilisateur" autocomplete="off" maxlength="80" placeholder="Saisissez votre code"></div>
<div class="field"><input type="password" name="motDePasse" autocomplete="off" placeholder="Mot de passe"></div>
<button type="submit">Valider</button></form>`,
        ).replace('lang="en"', 'lang="fr"'),
      { fields: { user: "codeUtilisateur", pass: "motDePasse" } },
    ),
    formCase(
      accounts,
      bank,
      (error) =>
        page(
          "ログイン",
          `<h1>ログイン</h1>${errorAlert(error)}
<form method="post" action="${base(bank)}/login">
<fieldset><legend>支店番号と口座番号</legend>
<label>支店番号 <input type="tel" name="shiten" inputmode="numeric" maxlength="80"></label>
<label>口座番号 <input type="tel" name="koza" inputmode="numeric" maxlength="80"></label></fieldset>
<p>または</p>
<label>契約番号 <input type="tel" name="keiyaku" inputmode="numeric" maxlength="80"></label>
<label>ログインパスワード <input type="password" name="pw"></label>
<button type="submit">ログイン</button></form>`,
        ).replace('lang="en"', 'lang="ja"'),
      // The contract number alone, or the branch and account numbers together, name the account.
      { fields: { user: "keiyaku", pass: "pw" }, identify: (b) => b.keiyaku || `${b.shiten ?? ""}-${b.koza ?? ""}` },
    ),
    formCase(
      accounts,
      portal,
      (error) =>
        page(
          "Applicant portal",
          `<h1>Applicant portal</h1>${errorAlert(error)}
<form method="post" action="${base(portal)}/login">
<div><label for="Perm">Perm number</label> <input id="Perm" name="Perm" type="text" data-val="true" data-val-regex="Digits only" data-val-regex-pattern="^[0-9]{7}$"></div>
<div><label for="AppId">Application ID</label> <input id="AppId" name="AppId" type="text"></div>
<div><label for="Pin">PIN</label> <input id="Pin" name="Pin" type="password"></div>
<button type="submit">Submit</button></form>`,
        ),
      { fields: { user: "AppId", pass: "Pin" }, identify: (b) => b.AppId || b.Perm || "" },
    ),
  ];
}

/** The catalog's entries; the bank's signs in once the caller names the two fields it does not fill. */
const IDENTIFIER_CHOICE_CASES = [
  { name: "identifier-user-code", extra: {} },
  { name: "identifier-branch-account", extra: { additionalFields: { 支店番号: "", 口座番号: "" } } },
  { name: "identifier-perm-or-application", extra: {} },
];

export const identifierChoiceCases = defineCase({
  router: ({ accounts }) => identifierChoice(accounts),
  cases: IDENTIFIER_CHOICE_CASES.map((c) => standard(c.name, c.extra)),
});
