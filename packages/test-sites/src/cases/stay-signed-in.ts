import { Router, urlencoded } from "express";
import { type Accounts, page, readCookie } from "../accounts";
import { base, formCase, plainForm, sessionCookie, startSession } from "./kit";
import { defineCase, standard } from "./login-case";

/**
 * After the password, a question page ("Stay signed in?" / "Remember this device?") that must be answered
 * before the site hands out its session cookie. `persistentOn` is the answer that makes the session last.
 */
function interstitialCase(accounts: Accounts, name: string, question: string, yes: string, no: string): Router {
  const pending = new Map<string, string>();
  const r = formCase(accounts, name, (error) => page("Sign in", `<h1>Sign in</h1>${plainForm(name, error)}`), {
    onSuccess: (_req, res, username) => {
      const ticket = `${Date.now()}${Math.random()}`;
      pending.set(ticket, username);
      res.cookie("pending_login", ticket, { httpOnly: true, path: "/" }).redirect(302, `${base(name)}/question`);
    },
  });
  const router = Router();
  router.get(`${base(name)}/question`, (_req, res) => {
    res.type("html").send(
      page(
        question,
        `<h1>${question}</h1><p>Do this to reduce the number of times you are asked to sign in.</p>
<form method="post" action="${base(name)}/question"><button name="answer" value="no" type="submit">${no}</button>
<button name="answer" value="yes" type="submit">${yes}</button></form>`,
      ),
    );
  });
  router.post(`${base(name)}/question`, urlencoded({ extended: false }), (req, res) => {
    const username = pending.get(readCookie(req.headers.cookie, "pending_login") ?? "");
    if (!username) return res.redirect(302, `${base(name)}/login`);
    const persistent = req.body?.answer === "yes";
    startSession(res, accounts, name, username, persistent ? 30 * 86_400_000 : 0);
    res.clearCookie("pending_login", { path: "/" }).redirect(302, `${base(name)}/account`);
  });
  router.use(r);
  return router;
}

const staySignedIn = (accounts: Accounts) =>
  interstitialCase(accounts, "stay-signed-in", "Stay signed in?", "Yes", "No");
const rememberDevice = (accounts: Accounts) =>
  interstitialCase(accounts, "remember-device", "Remember this device?", "Trust this device", "Not now");

/** Asked after the password whether to keep the session: the answer "yes" must make the cookie outlive the browser. */
export const staySignedInCases = defineCase({
  router: ({ accounts }) => [staySignedIn(accounts), rememberDevice(accounts)],
  cases: ["stay-signed-in", "remember-device"].map((name) =>
    standard(name, { session: { cookie: sessionCookie(name), cookieDomain: "127.0.0.1", persistentDays: 29 } }),
  ),
});
