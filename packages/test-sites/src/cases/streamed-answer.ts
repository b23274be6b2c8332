import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "streamed-answer";
const REFUSAL = "Cannot log in to the server. Access denied for user (using password: YES)";
// How long the server pauses between the refusal it has sent and the form below it.
const PAUSE_MS = 3_000;

/**
 * A server that sends its answer in pieces, as a PHP application flushing its output or a busy server does:
 * a wrong password's page comes as the refusal first, then, seconds later, the form shown again below it.
 * Between them the browser shows a page with the refusal and no form, its document still loading: the
 * site's verdict is the whole page's (the form shown again with its refusal), not that half's.
 */
function streamedAnswer(accounts: Accounts): Router {
  return formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
    messages: { wrong: REFUSAL, locked: REFUSAL },
    onRefusal: (_req, res) => {
      const whole = page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, REFUSAL)}`);
      const cut = whole.indexOf(errorAlert(REFUSAL)) + errorAlert(REFUSAL).length;
      res.status(200).type("html").write(whole.slice(0, cut));
      const rest = setTimeout(() => res.end(whole.slice(cut)), PAUSE_MS);
      res.once("close", () => clearTimeout(rest));
    },
  });
}

export const streamedAnswerCase = defineCase({
  router: ({ accounts }) => streamedAnswer(accounts),
  cases: [standard(NAME, { refusal: REFUSAL })],
});
