import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";
import { at, defineCase, standard } from "./login-case";

const NAME = "landing-link";

/** The URL the caller has is the home page; the form is one "Log in" link away. */
function landingLink(accounts: Accounts): Router {
  const r = formCase(accounts, NAME, (error) => page("Log in — Example", `<h1>Log in</h1>${plainForm(NAME, error)}`));
  r.get(`${base(NAME)}/`, (_req, res) => {
    res.type("html").send(
      page(
        "Example — project management",
        `<header><a href="${base(NAME)}/">Example</a>
<a href="${base(NAME)}/pricing">Pricing</a> <a href="${base(NAME)}/signup">Sign up free</a> <a href="${base(NAME)}/login">Log in</a></header>
<h1>Plan your work</h1><p>Teams ship faster with Example.</p>`,
      ),
    );
  });
  return r;
}

export const landingLinkCase = defineCase({
  router: ({ accounts }) => landingLink(accounts),
  cases: [standard(NAME, { url: at(`${base(NAME)}/`) })],
});
