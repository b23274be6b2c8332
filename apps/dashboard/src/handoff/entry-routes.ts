import { Router, urlencoded, type Request, type Response } from "express";
import type { EntryLinkResource } from "@authsvc/contracts";
import { parseTotpSecret } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";
import type { TargetGuard } from "@authsvc/egress";
import { readEntryLinkToken, type TypedCredential } from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";
import { html, type SafeHtml } from "../html/html";

export const ENTRY_PATH = "/enter/";

type EntryLinkRow = NonNullable<Awaited<ReturnType<Database["entryLinks"]["forPage"]>>>;

/** What the page needs of the jobs' home (AuthJobs): a link's state, and its sign-in started. */
export interface EntryLinkPort {
  viewEntryLink(link: EntryLinkRow): Promise<EntryLinkResource>;
  startEntrySignIn(link: EntryLinkRow, typed: TypedCredential): Promise<string | null>;
}

export interface EntryDeps {
  db: Database;
  jobs: EntryLinkPort;
  guard: TargetGuard;
  fingerprintKey: Buffer;
  /** This dashboard's own origin: the page's posts must come from it. */
  ownOrigin: (req: Request) => string;
  log: Logger;
}

// How often a page that waits for the sign-in loads itself again (no script: the page's policy allows none).
const REFRESH_SECONDS = 2;

/**
 * The hosted page of an entry link (POST /v1/credentials/entry-links), for the end user the agent platform
 * sends it to: no API key, no account, only the token. It names the organization and the site and takes a
 * username, a password and, optionally, an authenticator's secret; the service signs in with them once (a
 * step only the person can do is handed to them on the hand-off page), and stores the credential. What they
 * type goes into the sign-in job's encrypted input only; it is never logged or shown again. A spent, failed or
 * expired link answers 410, saying which.
 */
export function entryRoutes(deps: EntryDeps): Router {
  const { db } = deps;
  const r = Router();

  async function linkOf(req: Request, res: Response): Promise<{ link: EntryLinkRow; view: EntryLinkResource } | null> {
    const id = readEntryLinkToken(deps.fingerprintKey, String(req.params.token ?? ""));
    const link = id ? await db.entryLinks.forPage(id) : null;
    if (!link) {
      res.status(404).type("text/plain").send("No such link.");
      return null;
    }
    return { link, view: await deps.jobs.viewEntryLink(link) };
  }

  const page = (link: EntryLinkRow, body: SafeHtml, refresh = false) =>
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? html`<meta http-equiv="refresh" content="${REFRESH_SECONDS}">` : ""}<title>Sign in to ${link.siteOrigin}</title><link rel="stylesheet" href="/assets/app.css"></head>
<body class="handoff"><main>
<h1>Sign in to ${link.siteOrigin}</h1>
${body}
</main></body></html>`.toString();

  const form = (link: EntryLinkRow, view: EntryLinkResource, problem?: string) => html`
<p>${link.org.name} asks you to sign in to ${link.siteOrigin} here, once. Your username and password are sent only to that site, to check
them, and kept encrypted for ${link.org.name}'s agents to sign in with; ${link.org.name} never sees them.</p>
${problem ? html`<p role="alert">${problem}</p>` : ""}
<form method="post">
  <label>Username or email <input name="username" autocomplete="username" required maxlength="320"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required maxlength="1024"></label>
  <label>Authenticator secret (only if you use an authenticator app) <input name="totpSecret" autocomplete="off" maxlength="512"></label>
  <button type="submit">Save and sign in</button>
</form>
<p class="muted">Tries left: ${view.maxTries - view.tries}. This link ends at ${view.expiresAt}.</p>`;

  /** A link that takes nothing more: 410 with what became of it. */
  function ended(res: Response, link: EntryLinkRow, view: EntryLinkResource): boolean {
    const text =
      view.status === "created"
        ? "Saved: your sign-in is stored. This link is used up; you can close this page."
        : view.status === "expired"
          ? "This link has expired. Ask for a new one."
          : view.status === "failed"
            ? `The sign-in did not work ${view.maxTries} times, so this link takes no more tries. ${view.lastError ? `The site said: ${view.lastError.message}` : ""}`
            : null;
    if (!text) return false;
    res
      .status(410)
      .type("html")
      .send(page(link, html`<p role="status">${text}</p>`));
    return true;
  }

  r.get("/enter/:token", async (req, res) => {
    const found = await linkOf(req, res);
    if (!found) return;
    const { link, view } = found;
    if (ended(res, link, view)) return;
    if (view.status === "validating") {
      res
        .type("html")
        .send(page(link, html`<p role="status">Checking your sign-in with ${link.siteOrigin}…</p>`, true));
      return;
    }
    if (view.status === "needs_input") {
      const body = html`<p role="status">The site asks for one more step: ${view.input?.prompt ?? ""}</p>
${view.input?.handoffUrl ? html`<p><a href="${view.input.handoffUrl}">Finish signing in</a></p>` : ""}`;
      res.type("html").send(page(link, body, true));
      return;
    }
    const problem = view.lastError ? `The sign-in did not work. The site said: ${view.lastError.message}` : undefined;
    res.type("html").send(page(link, form(link, view, problem)));
  });

  r.post("/enter/:token", urlencoded({ extended: false, limit: "8kb", parameterLimit: 10 }), async (req, res) => {
    if (req.get("origin") !== deps.ownOrigin(req))
      return res.status(403).type("text/plain").send("Cross-origin posts are refused.");
    const found = await linkOf(req, res);
    if (!found) return;
    const { link, view } = found;
    if (ended(res, link, view)) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
    const typed: TypedCredential = { username: text("username").trim(), password: text("password") };
    const totp = text("totpSecret").trim();
    let problem: string | null = null;
    if (!typed.username || typed.username.length > 320)
      problem = "Type your username or email (at most 320 characters).";
    else if (!typed.password || typed.password.length > 1024) problem = "Type your password (at most 1024 characters).";
    else if (totp) {
      try {
        parseTotpSecret(totp);
        typed.totpSecret = totp;
      } catch (err) {
        problem = `The authenticator secret cannot be read: ${err instanceof Error ? err.message : "it is not a secret or an otpauth:// address"}.`;
      }
    }
    if (problem)
      return res
        .status(400)
        .type("html")
        .send(page(link, form(link, view, problem)));
    const verdict = await deps.guard.check(link.loginUrl);
    if (!verdict.allowed)
      return res
        .status(422)
        .type("html")
        .send(page(link, html`<p role="alert">This site cannot be signed in to from here: ${verdict.reason}.</p>`));
    const jobId = await deps.jobs.startEntrySignIn(link, typed);
    deps.log.info({ linkId: link.id, jobId, started: jobId !== null }, "entry link sign-in");
    // Started, or one runs already: the page shows how it goes.
    res.redirect(303, req.originalUrl);
  });

  return r;
}
