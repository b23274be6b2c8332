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
import { outageLogin } from "./sites/outage-login";
import { slowLogin } from "./sites/slow-login";
import { Gates, heldLogin } from "./sites/held-login";
import { lockoutRedirect } from "./sites/lockout-redirect";
import { noticeDelayedSubmit } from "./sites/notice-delayed-submit";
import { caseRouters, LOGIN_CASES, SENT_CODE_CASES } from "./cases";
import { Outbox, type OutboxConfig } from "./outbox";
import { imageCaptchaShown } from "./cases/image-captcha";
import { SiteDns } from "./site-dns";
import { createSignupRouters, invitationPath, Invitations, SIGNUP_CASES, SignupRegistry } from "./signup";
import { ACME_USERS, OAUTH_SITES, type OAuthSites, startOAuthSites } from "./oauth";

export const DEMO_USER = { username: "demo", email: "demo@example.test", password: "demo-password" };

export interface TestSites {
  url: string;
  accounts: Accounts;
  outbox: Outbox;
  /** Acme ID (an OpenID Connect provider) and the sites that sign in with it, each on its own port. */
  oauth: OAuthSites;
  /** The gates that hold `/held/login` (fault tests: a login caught mid-way). */
  gates: Gates;
  /** The sites' DNS (their DKIM keys), `address:port`, for mail-in's MAIL_DNS_SERVERS. */
  dnsServer: string;
  close(): Promise<void>;
}

/** The OAuth fixtures' part of the index page: each site's login pages, the provider and its users. */
function oauthIndex(oauth: OAuthSites): string {
  const sites = (Object.keys(OAUTH_SITES) as Array<keyof typeof OAUTH_SITES>).map((k) => {
    const url = oauth.sites[k];
    const pages = ["login", "login-popup", "login-no-provider", "signup"]
      .map((p) => `<a href="${url}/${p}">/${p}</a>`)
      .join(" · ");
    return `<li>${escapeHtml(OAUTH_SITES[k].name)} (<code>${k}</code>): ${pages}</li>`;
  });
  const users = Object.values(ACME_USERS)
    .map((u) => `<code>${u.email}</code>`)
    .join(", ");
  return `<h2>Sign in with Acme ID (OpenID Connect)</h2><p>Provider <a href="${oauth.issuer}/.well-known/openid-configuration">${oauth.issuer}</a>;
users ${users} (password <code>${ACME_USERS.agent.password}</code>). Where they run: <code>GET /__fixture/oauth</code>.</p><ul>${sites.join("")}</ul>`;
}

/**
 * Local websites that behave like real ones. `/__fixture/*` is the tests' control surface: add users and
 * read how many login attempts a user made on each site.
 */
export function createTestSitesApp(
  accounts = new Accounts(),
  outbox = new Outbox(),
  oauth?: OAuthSites,
  gates = new Gates(),
) {
  accounts.addUser(DEMO_USER.username, DEMO_USER.password);
  accounts.addUser(DEMO_USER.email, DEMO_USER.password); // for the pages whose field wants an email address
  const app = express();
  app.disable("x-powered-by");
  // A site's mail comes from the domain it is visited under (`acme.test` through the host map, else the IP).
  app.use((req, _res, next) => outbox.asHost(req.hostname, next));
  app.get("/", (req, res) => {
    const here = `http://${req.headers.host ?? "127.0.0.1"}`;
    const items = LOGIN_CASES.map(
      (c) => `<li><a href="${escapeHtml(c.url(here))}">${escapeHtml(c.name)}</a> — ${escapeHtml(c.expect)}</li>`,
    );
    const signupPages = SIGNUP_CASES.map(
      (c) =>
        `<li><a href="${c.path}">${c.name}</a> — ${c.verification ? `confirmed by ${c.verification}` : "no confirmation"}, ${c.signsIn ? "signs in" : "then log in"}</li>`,
    );
    const sentCodes = SENT_CODE_CASES.map(
      (c) => `<li><a href="/cases/${c.name}/login">${c.name}</a> (${c.method}) — ${escapeHtml(c.expect)}</li>`,
    );
    res.type("html").send(
      page(
        "Fixture sites",
        `<h1>Fixture login pages</h1><p>User <code>${DEMO_USER.username}</code>, password
<code>${DEMO_USER.password}</code>, or <code>${DEMO_USER.email}</code> where the field wants an email address.</p><ul>${items.join("")}</ul>
<h2>Codes and links sent to the service's inbox</h2><p>Create a mailbox (<code>POST /v1/mailboxes</code>) or register a number
(<code>POST /v1/phone-numbers</code>), add a user with that address or number (<code>POST /__fixture/users</code>), then log in.</p><ul>${sentCodes.join("")}</ul>
<h2>Signup pages</h2><p>Accounts they create: <code>GET /__fixture/signups/&lt;email or username&gt;</code>; signup-invite needs an
invitation (<code>POST /__fixture/invitations</code>).</p><ul>${signupPages.join("")}</ul>${oauth ? oauthIndex(oauth) : ""}`,
      ),
    );
  });
  let redesignVersion = 1;
  app.use(
    classicForm(accounts),
    spaToken(accounts),
    indexedDbToken(accounts),
    pathApps(accounts),
    failurePages(),
    flakyLogin(),
    outageLogin(),
    slowLogin(accounts),
    heldLogin(accounts, gates),
    lockoutRedirect(accounts),
    noticeDelayedSubmit(),
  );
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
      delivery?: "ok" | "expired" | "lost" | "late";
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
    const { address, delivery } = req.body as { address: string; delivery: "ok" | "expired" | "lost" | "late" };
    accounts.setDelivery(String(address), delivery);
    res.status(204).end();
  });
  // A `late` address's held mail arrives now (the flow that waited for it has given up): how many were held.
  app.post("/__fixture/deliveries/release", json(), async (req, res) => {
    const { address } = req.body as { address: string };
    res.json({ released: await accounts.releaseHeld(String(address)) });
  });
  // The user's phone: approves the push sign-in requests waiting for the user (the push-approval case).
  app.post("/__fixture/push-approvals", json(), (req, res) => {
    res.json({ approved: accounts.approvePush(String((req.body as { username?: string }).username ?? "")) });
  });
  // The person's eyes: the characters the image-captcha case's latest image shows.
  app.get("/__fixture/image-captcha", (_req, res) => {
    res.json({ shows: imageCaptchaShown.latest });
  });
  // What a `late` address's mail host holds back (as the address's owner would read it later).
  app.get("/__fixture/deliveries/held", (req, res) => {
    res.json({ held: accounts.heldFor(String(req.query.address ?? "")) });
  });
  // Mail anyone could send: `From:` the site's address, signed (if at all) for a domain the forger holds.
  app.post("/__fixture/forged-mail", json(), async (req, res) => {
    const { to, subject, text, from, signedBy } = req.body as {
      to: string;
      subject: string;
      text: string;
      from?: string;
      signedBy?: string;
    };
    await outbox.forge(
      { to: String(to), subject: String(subject), text: String(text), html: "" },
      from ?? outbox.currentSender(),
      signedBy,
    );
    res.status(204).end();
  });
  // The caller's own mail host: forward an address's mail (as Gmail does) to the service's forwarding inbox.
  app.post("/__fixture/mail-forwarding", json(), async (req, res) => {
    const { address, forwardTo } = req.body as { address: string; forwardTo: string };
    res.json(await outbox.forward(String(address), String(forwardTo)));
  });
  // Tests in another process (e2e) find the OAuth fixtures here.
  app.get("/__fixture/oauth", (_req, res) => {
    if (!oauth) return res.status(404).json({ error: "the OAuth fixtures are not running" });
    res.json({ issuer: oauth.issuer, sites: oauth.sites });
  });
  app.get("/__fixture/signups/:key", (req, res) => {
    res.json({ accounts: signups.find(req.params.key) });
  });
  app.post("/__fixture/invitations", json(), (req, res) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    const token = invitations.create(typeof email === "string" && email.trim() ? email.trim() : null);
    res.json({ token, url: `http://${req.headers.host ?? "127.0.0.1"}${invitationPath(token)}` });
  });
  return { app, accounts, outbox, gates };
}

export async function startTestSites(
  port = 0,
  host = "127.0.0.1",
  outboxConfig: OutboxConfig = {},
): Promise<TestSites> {
  const dns = await SiteDns.start();
  const outbox = new Outbox(outboxConfig, dns);
  const oauth = await startOAuthSites({ outbox });
  const { app, accounts, gates } = createTestSitesApp(new Accounts(), outbox, oauth);
  return new Promise((resolve, reject) => {
    const server: Server = app.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      outbox.sendAs(host);
      resolve({
        url: `http://${host}:${bound}`,
        accounts,
        outbox,
        oauth,
        gates,
        dnsServer: dns.server,
        close: async () => {
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
          await Promise.all([oauth.close(), dns.close()]);
        },
      });
    });
    server.on("error", (err) => void Promise.all([oauth.close(), dns.close()]).finally(() => reject(err)));
  });
}
