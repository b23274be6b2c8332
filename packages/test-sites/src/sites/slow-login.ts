import { Router, urlencoded } from "express";
import type { Accounts } from "../accounts";
import { loginPage } from "./classic-form";

/**
 * The classic form, but the server takes `?delayMs` (default 3 s) to answer the login POST, as a busy real
 * site does. It counts the login POSTs it is answering at once per host name (the site a client thinks it
 * talks to): `GET /__fixture/slow/in-flight` gives the current and the highest count of each. With
 * `?together=N` a POST first waits for company: until N of its host's are in flight (or 5 s passed), so
 * logins that may run side by side do, however slowly the machine brings them there.
 */
const COMPANY_WAIT_MS = 5_000;

export function slowLogin(accounts: Accounts): Router {
  const r = Router();
  const inFlight = new Map<string, { now: number; max: number }>();
  const waiting = new Map<string, Array<() => void>>();
  r.get("/slow/login", (req, res) => {
    const together = req.query.together ? `&together=${Number(req.query.together)}` : "";
    res
      .type("html")
      .send(loginPage(undefined, "", `/slow/login?delayMs=${Number(req.query.delayMs ?? 3000)}${together}`));
  });
  r.post("/slow/login", urlencoded({ extended: false }), async (req, res) => {
    const count = inFlight.get(req.hostname) ?? { now: 0, max: 0 };
    inFlight.set(req.hostname, count);
    count.now++;
    count.max = Math.max(count.max, count.now);
    // Company came: those waiting for it go on.
    for (const wake of waiting.get(req.hostname) ?? []) wake();
    waiting.set(req.hostname, []);
    try {
      if (count.now < Number(req.query.together ?? 1)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, COMPANY_WAIT_MS);
          waiting.get(req.hostname)!.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(Number(req.query.delayMs ?? 3000), 30_000)));
    } finally {
      count.now--;
    }
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    if (!accounts.attempt("slow", username, password)) {
      res.type("html").send(loginPage("Invalid username or password.", username));
      return;
    }
    res.cookie("classic_sid", accounts.openSession(username), { httpOnly: true, sameSite: "lax", path: "/" });
    res.redirect(302, "/classic/account");
  });
  r.get("/__fixture/slow/in-flight", (_req, res) => {
    res.json(Object.fromEntries(inFlight));
  });
  return r;
}
