import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "modal-login";

/** A home page whose login form opens in a modal dialog from a "Sign in" button in the header. */
function modalLogin(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) =>
    page(
      "Acme Store",
      `<header><a href="${base(NAME)}/login">Acme</a> <button id="open">Sign in</button></header>
<h1>Spring sale</h1><p>Everything 20% off.</p>
<dialog id="dlg"><h2>Welcome back</h2>${plainForm(NAME, error)}<button id="close" type="button">Close</button></dialog>`,
      // The site reopens the dialog itself when it has an error to show, as modal logins do.
      `const dlg = document.getElementById("dlg");
document.getElementById("open").onclick = () => dlg.showModal();
document.getElementById("close").onclick = () => dlg.close();
${error ? "dlg.showModal();" : ""}`,
    ),
  );
}

export const modalLoginCase = defineCase({
  router: ({ accounts }) => modalLogin(accounts),
  cases: [standard(NAME)],
});
