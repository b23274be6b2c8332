import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { base, formCase, plainForm } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "busy-dashboard";

/** A dashboard that polls its server every 100 ms, forever: the network never goes quiet. */
function busyDashboard(accounts: Accounts): Router {
  const r = formCase(accounts, NAME, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(NAME, error)}`), {
    accountScript: `setInterval(() => fetch("${base(NAME)}/poll"), 100);`,
  });
  r.get(`${base(NAME)}/poll`, (_req, res) => {
    setTimeout(() => res.json({ unread: 0 }), 50);
  });
  return r;
}

export const busyDashboardCase = defineCase({
  router: ({ accounts }) => busyDashboard(accounts),
  cases: [standard(NAME)],
});
