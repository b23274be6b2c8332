import express, { json } from "express";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Accounts, escapeHtml, page } from "./accounts";
import { classicForm } from "./sites/classic-form";
import { spaToken } from "./sites/spa-token";
import { indexedDbToken } from "./sites/indexeddb-token";
import { pathApps } from "./sites/path-apps";
import { failurePages } from "./sites/failure-pages";
import { flakyLogin } from "./sites/flaky-login";
import { slowLogin } from "./sites/slow-login";
import { lockoutRedirect } from "./sites/lockout-redirect";
import { noticeDelayedSubmit } from "./sites/notice-delayed-submit";
import { caseRouters, LOGIN_CASES, SENT_CODE_CASES } from "./cases";
import { Outbox, type OutboxConfig } from "./outbox";
import { createSignupRouters, invitationPath, Invitations, SIGNUP_CASES, SignupRegistry } from "./signup";
import { type OAuthSites, startOAuthSites } from "./oauth";

export const DEMO_USER = { username: "demo", email: "demo@example.test", password: "demo-password" };

export interface TestSites {
  url: string;
  accounts: Accounts;
  outbox: Outbox;
  /** Acme ID (an OpenID provider) and the sites that sign in with it, each on a loopback port of its own. */
  oauth: OAuthSites;
  close(): Promise<void>;
}

/**
 * Local websites that behave like real ones. `/__fixture/*` is the tests' control surface: add users and
 * read how many login attempts a user made on each site.
 */
export function createTestSitesApp(accounts = new Accounts(), outbox = new Outbox()) {
  accounts.addUser(DEMO_USER.username, DEMO_USER.password);
  accounts.addUser(DEMO_USER.email, DEMO_USER.password); // for the pages whose field wants an email address
  const app = express();
  app.disable("x-powered-by");
  app.get("/", (req, res) => {
    const here = `http://${req.headers.host ?? "127.0.0.1"}`;
    const items = LOGIN_CASES.map((c) => `<li><a href="${escapeHtml(c.url(here))}">${escapeHtml(c.name)}</a> — ${escapeHtml(c.expect)}</li>`);
    const signupPages = SIGNUP_CASES.map((c) => `<li><a href="${c.path}">${c.name}</a> — ${c.verification ? `confirmed by ${c.verification}` : "no confirmation"}, ${c.signsIn ? "signs in" : "then log in"}</li>`);
    const sentCodes = SENT_CODE_CASES.map((c) => `<li><a href="/cases/${c.name}/login">${c.name}</a> (${c.method}) — ${escapeHtml(c.expect)}</li>`);
    res.type("html").send(page("Fixture sites", `<h1>Fixture login pages</h1><p>User <code>${DEMO_USER.username}</code>, password
<code>${DEMO_USER.password}</code>, or <code>${DEMO_USER.email}</code> where the field wants an email address.</p><ul>${items.join("")}</ul>
<h2>Codes and links sent to the service's inbox</h2><p>Create a mailbox (<code>POST /v1/mailboxes</code>) or register a number
(<code>POST /v1/phone-numbers</code>), add a user with that address or number (<code>POST /__fixture/users</code>), then log in.</p><ul>${sentCodes.join("")}</ul>
<h2>Signup pages</h2><p>Accounts they create: <code>GET /__fixture/signups/&lt;email or username&gt;</code>; signup-invite needs an
invitation (<code>POST /__fixture/invitations</code>).</p><ul>${signupPages.join("")}</ul>`));
  });
  let redesignVersion = 1;
  app.use(classicForm(accounts), spaToken(accounts), indexedDbToken(accounts), pathApps(accounts), failurePages(), flakyLogin(), slowLogin(accounts), lockoutRedirect(accounts), noticeDelayedSubmit());
  app.use(caseRouters(accounts, () => redesignVersion, outbox));
  const signups = new SignupRegistry(accounts);
  const invitations = new Invitations();
  app.use(createSignupRouters(accounts, outbox, signups, invitations));
  app.post("/__fixture/users", json(), (req, res) => {
    const { username, password, locked, totpSecret, delivery } = req.body as {
      username: string;
      password?: string;
      locked?: boolean;
      totpSecret?: string;
      delivery?: "ok" | "expired" | "lost";
    };
    accounts.addUser(username, password ?? "", { locked: locked === true, totpSecret, delivery });
    res.status(204).end();
  });
  app.post("/__fixture/redesign", json(), (req, res) => {
    redesignVersion = Number((req.body as { version?: number }).version) === 2 ? 2 : 1;
    res.status(204).end();
  });
  app.post("/__fixture/expire-sessions", json(), (req, res) => {
    res.json({ ended: accounts.endSessionsOf(String((req.body as { username?: string }).username ?? "")) });
  });
  app.get("/__fixture/attempts/:username", (req, res) => {
    res.json(accounts.attemptsFor(req.params.username));
  });
  app.post("/__fixture/deliveries", json(), (req, res) => {
    const { address, delivery } = req.body as { address: string; delivery: "ok" | "expired" | "lost" };
    accounts.setDelivery(String(address), delivery);
    res.status(204).end();
  });
  // The caller's own mail host: forward an address's mail (as Gmail does) to the service's forwarding inbox.
  app.post("/__fixture/mail-forwarding", json(), async (req, res) => {
    const { address, forwardTo } = req.body as { address: string; forwardTo: string };
    res.json(await outbox.forward(String(address), String(forwardTo)));
  });
  app.get("/__fixture/signups/:key", (req, res) => {
    res.json({ accounts: signups.find(req.params.key) });
  });
  app.post("/__fixture/invitations", json(), (req, res) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    const token = invitations.create(typeof email === "string" && email.trim() ? email.trim() : null);
    res.json({ token, url: `http://${req.headers.host ?? "127.0.0.1"}${invitationPath(token)}` });
  });
  return { app, accounts, outbox };
}

export async function startTestSites(port = 0, host = "127.0.0.1", outboxConfig: OutboxConfig = {}): Promise<TestSites> {
  const { app, accounts, outbox } = createTestSitesApp(new Accounts(), new Outbox(outboxConfig));
  const oauth = await startOAuthSites({ outbox });
  // Tests in other processes (the e2e suite) find the OAuth fixtures here.
  app.get("/__fixture/oauth", (_req, res) => {
    res.json({ issuer: oauth.issuer, sites: oauth.sites });
  });
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      outbox.sendAs(host);
      resolve({
        url: `http://${host}:${bound}`,
        accounts,
        outbox,
        oauth,
        close: async () => {
          await Promise.all([
            oauth.close(),
            new Promise<void>((done) => {
              server.close(() => done());
              server.closeAllConnections();
            }),
          ]);
        },
      });
    });
    server.on("error", (err) => {
      void oauth.close();
      reject(err);
    });
  });
}
