import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "late-form";

/** A page that shows a spinner and draws its form with JavaScript 1.5 s after load. */
function lateForm(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) =>
    page(
      "Sign in",
      `<div id="root"><p class="spinner">Loading…</p></div>`,
      `setTimeout(() => { document.getElementById("root").innerHTML = ${JSON.stringify(`<h1>Sign in</h1>${plainForm(NAME, error)}`)}; }, 1500);`,
    ),
  );
}

export const lateFormCase = defineCase({
  router: ({ accounts }) => lateForm(accounts),
  cases: [standard(NAME)],
});
