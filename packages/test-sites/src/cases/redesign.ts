import type { Router } from "express";
import { type Accounts, page } from "../accounts";
import { errorAlert, formCase } from "./kit";
import { defineCase, standard } from "./login-case";

const NAME = "redesign";

/**
 * A login page the tests can redesign between logins (`POST /__fixture/redesign`): new ids, names,
 * layout and button, so that a learned flow no longer fits it.
 */
function redesign(accounts: Accounts, version: () => number): Router {
  return formCase(
    accounts,
    NAME,
    (error) => {
      const alert = errorAlert(error);
      return version() === 1
        ? page(
            "Sign in",
            `<h1>Sign in</h1>${alert}<form method="post"><label>User <input id="user" name="user"></label>
<label>Password <input id="pass" name="pass" type="password"></label><button id="go" type="submit">Sign in</button></form>`,
          )
        : page(
            "Welcome back",
            `<main class="v2"><section><h2>Welcome back</h2>${alert}<form method="post">
<div><input id="login-identifier" name="identifier" placeholder="Email or username"></div>
<div><input id="login-secret" name="secret" type="password" placeholder="Password"></div>
<div><button id="continue" type="submit">Continue</button></div></form></section></main>`,
          );
    },
    {
      fields: { user: "user", pass: "pass" },
      verify: (body) => {
        // Both designs post to the same handler; map the new field names onto the old ones.
        if (body.identifier !== undefined) Object.assign(body, { user: body.identifier, pass: body.secret });
        return null;
      },
    },
  );
}

export const redesignCase = defineCase({
  router: ({ accounts, redesignVersion }) => redesign(accounts, redesignVersion),
  cases: [standard(NAME)],
});
