import { Router, urlencoded, type Request, type Response } from "express";
import type { Accounts } from "../accounts";
import { loginPage } from "./classic-form";

/**
 * Named gates the tests close and open: a request that meets a closed gate waits (as behind a sign-in
 * backend that is slow to answer) until the test opens it, or its client goes away.
 */
export class Gates {
  private readonly closed = new Map<string, Set<(status?: number) => void>>();

  close(name: string): void {
    if (!this.closed.has(name)) this.closed.set(name, new Set());
  }

  /** Lets every waiting and future request through; `answer`: the requests waiting now get that HTTP status instead (a server failing them). */
  open(name: string, answer?: number): void {
    const waiting = this.closed.get(name);
    this.closed.delete(name);
    for (const release of waiting ?? []) release(answer);
  }

  /** Requests waiting at the gate now. */
  held(name: string): number {
    return this.closed.get(name)?.size ?? 0;
  }

  /**
   * Resolves when the request may go on: at once when the gate is open, else when it opens or the client
   * leaves; with the status the request is to be answered with instead, when the gate was opened with one.
   */
  pass(name: string, req: Request): Promise<number | undefined> {
    const waiting = this.closed.get(name);
    if (!waiting) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const release = (status?: number) => {
        waiting.delete(release);
        req.socket.off("close", gone);
        resolve(status);
      };
      const gone = () => release();
      waiting.add(release);
      req.socket.once("close", gone);
    });
  }
}

/**
 * The classic form behind a slow server, held at a test's gate (`?gate=name`): `hold=page` holds the login
 * page (the browser waits for it, before any password is typed); `hold=submit` counts the attempt as soon as
 * the password arrives and holds the answer (the site has the password, we do not know the outcome yet).
 */
export function heldLogin(accounts: Accounts, gates: Gates): Router {
  const r = Router();
  const gateOf = (req: Request, at: "page" | "submit") =>
    req.query.hold === at && typeof req.query.gate === "string" ? req.query.gate : null;
  const sent = (res: Response) => res.writableEnded || res.destroyed;
  r.get("/held/login", async (req, res) => {
    const gate = gateOf(req, "page");
    const failed = gate ? await gates.pass(gate, req) : undefined;
    if (sent(res)) return;
    if (failed) return res.status(failed).type("text").send("Service Unavailable");
    res.type("html").send(loginPage(undefined, "", req.originalUrl));
  });
  r.post("/held/login", urlencoded({ extended: false }), async (req, res) => {
    const { username = "", password = "" } = (req.body ?? {}) as Record<string, string>;
    const ok = accounts.attempt("held", username, password);
    const gate = gateOf(req, "submit");
    if (gate) await gates.pass(gate, req);
    if (sent(res)) return;
    if (!ok) {
      res.type("html").send(loginPage("Invalid username or password.", username, req.originalUrl));
      return;
    }
    res.cookie("classic_sid", accounts.openSession(username), { httpOnly: true, sameSite: "lax", path: "/" });
    res.redirect(302, "/classic/account");
  });
  return r;
}
