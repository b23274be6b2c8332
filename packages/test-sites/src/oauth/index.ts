import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AcmeClient, createAcmeId } from "./acme-id";
import type { Mailer } from "./interactions";
import { createRelyingParty } from "./relying-party";
import type { SiteIdentity } from "./rp-pages";
import { AcmeUsers, type AcmeUserInput } from "./users";

export { ACME_MESSAGES } from "./acme-pages";
export { SITE_MESSAGES } from "./rp-pages";
export type { AcmeUserInput } from "./users";

/** The sites that sign in with Acme ID, by their key in `sites`. */
export const OAUTH_SITES = {
  a: { key: "northwind", name: "Northwind Notes", heading: "Your notes" },
  b: { key: "contoso", name: "Contoso Tasks", heading: "Your tasks" },
} satisfies Record<string, SiteIdentity>;
export type OAuthSiteKey = keyof typeof OAUTH_SITES;

/** The seeded users: `agent` and `totp` are linked on both sites, `new` on none (for signup). */
export const ACME_USERS = {
  agent: { email: "agent@acme.test", password: "acme-password" },
  // A fixed secret: an e2e test in another process than the stack must be able to compute the codes.
  totp: { email: "totp@acme.test", password: "acme-password", totpSecret: "ACMEFIXTURETOTPSECRETACMEFIXTURE" },
  blocked: { email: "blocked@acme.test", password: "acme-password", blocked: true },
  emailCode: { email: "code@acme.test", password: "acme-password", emailCode: true },
  new: { email: "new@acme.test", password: "acme-password" },
} satisfies Record<string, AcmeUserInput>;

export interface OAuthSites {
  /** Acme ID's issuer URL (discovery at `/.well-known/openid-configuration`). */
  issuer: string;
  /** Each relying party's origin; its login page is `/login`. */
  sites: Record<OAuthSiteKey, string>;
  addUser(user: AcmeUserInput): void;
  /** Links an existing Acme ID email to a (new) account on a site, so signing in works without signup. */
  link(site: OAuthSiteKey, email: string, username?: string): void;
  passwordSubmissions(email: string): number;
  close(): Promise<void>;
}

// Listening before the apps exist: a site's port is in its redirect_uri, which the provider must know.
async function listen(): Promise<{ server: Server; url: string }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Starts Acme ID (an OpenID Connect provider) and the relying-party sites on free loopback ports, with
 * the seeded users (ACME_USERS). The provider mails its codes through `outbox`.
 */
export async function startOAuthSites({ outbox }: { outbox: Mailer }): Promise<OAuthSites> {
  const [idp, a, b] = await Promise.all([listen(), listen(), listen()]);
  const origins = { a: a.url, b: b.url };
  const clients = Object.fromEntries(
    (Object.keys(OAUTH_SITES) as OAuthSiteKey[]).map((k) => [
      k,
      {
        clientId: OAUTH_SITES[k].key,
        clientSecret: randomBytes(16).toString("hex"),
        name: OAUTH_SITES[k].name,
        redirectUris: [`${origins[k]}/callback`, `${origins[k].replace("127.0.0.1", "localhost")}/callback`],
      },
    ]),
  ) as Record<OAuthSiteKey, AcmeClient>;
  const users = new AcmeUsers();
  for (const user of Object.values(ACME_USERS)) users.add(user);
  const provider = createAcmeId(idp.url, Object.values(clients), users, outbox);
  idp.server.on("request", provider.app);
  const rps = {
    a: createRelyingParty(OAUTH_SITES.a, a.url, idp.url, clients.a),
    b: createRelyingParty(OAUTH_SITES.b, b.url, idp.url, clients.b),
  };
  a.server.on("request", rps.a.app);
  b.server.on("request", rps.b.app);
  for (const rp of Object.values(rps)) {
    for (const seeded of [ACME_USERS.agent, ACME_USERS.totp, ACME_USERS.emailCode])
      rp.accounts.upsert(seeded.email.split("@")[0]!, seeded.email);
  }
  const servers = [idp.server, a.server, b.server];
  return {
    issuer: idp.url,
    sites: origins,
    addUser: (user) => void users.add(user),
    link: (site, email, username) => void rps[site].accounts.upsert(username ?? email.split("@")[0]!, email),
    passwordSubmissions: (email) => users.passwordSubmissions(email),
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((done) => {
              server.close(() => done());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
