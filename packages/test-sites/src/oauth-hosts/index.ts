import { listenHttpAndTls, FIXTURE_TLS_SPKI, type Listening } from "./listen";
import { createFabrikamApp, SITE_NAME } from "./fabrikam";
import { createGitHubApp } from "./github";
import { createGoogleApp } from "./google";
import { ProviderStore, type OAuthClient, type ProviderUserInput } from "./store";

export { GOOGLE_MESSAGES } from "./google";
export { GITHUB_MESSAGES } from "./github";
export { SITE_MESSAGES, SITE_NAME } from "./fabrikam";
export type { ProviderUserInput } from "./store";
export { FIXTURE_TLS_SPKI } from "./listen";

export const GOOGLE_HOST = "accounts.google.com";
export const GITHUB_HOST = "github.com";

/** The seeded users (fixed TOTP secrets, so a test or a caller can compute the codes). All are linked on Fabrikam. */
export const OAUTH_HOSTS_USERS = {
  google: {
    plain: { email: "agent@gmail.test", password: "google-password" },
    totp: {
      email: "agent-2fa@gmail.test",
      password: "google-2fa-password",
      totpSecret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    },
    blocked: { email: "blocked@gmail.test", password: "google-blocked-password", blocked: true },
  },
  github: {
    plain: { login: "agent-gh", email: "agent@github.test", password: "github-password" },
    totp: {
      login: "agent-gh-2fa",
      email: "agent-2fa@github.test",
      password: "github-2fa-password",
      totpSecret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
    },
  },
} satisfies { google: Record<string, ProviderUserInput>; github: Record<string, ProviderUserInput> };

export interface OAuthProviderFixture {
  /** The loopback port (HTTP and TLS) the host map sends the real host name's ports 80 and 443 to. */
  port: number;
  /** The address the browser uses (through the host map): https://accounts.google.com or https://github.com. */
  url: string;
  /** The fixture reached directly, for /__fixture/ control calls and the token exchange. */
  directUrl: string;
  tokenUrl: string;
  client: OAuthClient;
  store: ProviderStore;
}

export interface OAuthHosts {
  /** Host name → loopback target, the shape of @authsvc/egress's HostMap entries. */
  hostMap: Record<string, { address: string; port: number }>;
  /** The same map in EGRESS_HOST_MAP form. */
  hostMapEnv: string;
  /** The key of the fixtures' self-signed certificate, for the browser to trust (BROWSER_TRUSTED_SPKI). */
  trustedSpki: string;
  google: OAuthProviderFixture;
  github: OAuthProviderFixture;
  /** Fabrikam Boards, the relying party, e.g. http://127.0.0.1:41236 (its /login offers both providers). */
  site: string;
  close(): Promise<void>;
}

/**
 * Starts the Google-like and GitHub-like sign-in fixtures and the Fabrikam Boards relying party, each on a
 * loopback port of its own. A browser reaches the providers under their real names only through an egress
 * proxy with `hostMap` (EGRESS_HOST_MAP), and over TLS only when it trusts `trustedSpki`
 * (BROWSER_TRUSTED_SPKI): Chromium's HSTS preload list upgrades both names to https. Fabrikam talks to their
 * token endpoints directly.
 */
export async function startOAuthHosts(options: { host?: string; sitePort?: number } = {}): Promise<OAuthHosts> {
  const host = options.host ?? "127.0.0.1";
  const google = new ProviderStore((u) => u.email);
  const github = new ProviderStore((u) => u.login ?? u.email.split("@")[0]!);
  const googleServer = await listenHttpAndTls(createGoogleApp(google), host);
  const githubServer = await listenHttpAndTls(createGitHubApp(github), host);
  const direct = (port: number) => `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let siteUrl = "";
  const clients = {
    google: {
      id: "fabrikam-boards.apps.googleusercontent.test",
      secret: "GOCSPX-fabrikam-fixture",
      name: SITE_NAME,
      owner: "Fabrikam",
      redirectUris: [] as string[],
    },
    github: {
      id: "Iv1.fabrikamboards01",
      secret: "fabrikam-github-fixture-secret",
      name: SITE_NAME,
      owner: "fabrikam",
      redirectUris: [] as string[],
    },
  };
  const fixture = (
    store: ProviderStore,
    port: number,
    url: string,
    tokenPath: string,
    client: OAuthClient,
  ): OAuthProviderFixture => ({
    port,
    url,
    directUrl: direct(port),
    tokenUrl: `${direct(port)}${tokenPath}`,
    client,
    store,
  });
  const g = fixture(google, googleServer.port, `https://${GOOGLE_HOST}`, "/token", clients.google);
  const gh = fixture(github, githubServer.port, `https://${GITHUB_HOST}`, "/login/oauth/access_token", clients.github);
  const hostMap = { [GOOGLE_HOST]: { address: host, port: g.port }, [GITHUB_HOST]: { address: host, port: gh.port } };
  const hostMapEnv = Object.entries(hostMap)
    .map(([name, t]) => `${name}=${t.address.includes(":") ? `[${t.address}]` : t.address}:${t.port}`)
    .join(",");

  const site = createFabrikamApp(
    () => siteUrl,
    {
      google: {
        authorizeUrl: `${g.url}/o/oauth2/v2/auth`,
        tokenUrl: g.tokenUrl,
        clientId: g.client.id,
        clientSecret: g.client.secret,
        scope: "openid email profile",
      },
      github: {
        authorizeUrl: `${gh.url}/login/oauth/authorize`,
        tokenUrl: gh.tokenUrl,
        clientId: gh.client.id,
        clientSecret: gh.client.secret,
        scope: "user:email",
      },
    },
    (app) =>
      // Where tests (and the end-to-end stack's E2E_OAUTH_HOSTS_SITE_URL) find everything else.
      app.get("/__fixture/oauth-hosts", (_req, res) => {
        const describe = (f: OAuthProviderFixture) => ({
          url: f.url,
          port: f.port,
          control: `${f.directUrl}/__fixture`,
          tokenUrl: f.tokenUrl,
          clientId: f.client.id,
        });
        res.json({
          site: siteUrl,
          hostMap,
          hostMapEnv,
          trustedSpki: FIXTURE_TLS_SPKI,
          google: describe(g),
          github: describe(gh),
          users: OAUTH_HOSTS_USERS,
        });
      }),
  );
  const siteServer = await listenHttpAndTls(site.app, host, options.sitePort ?? 0);
  siteUrl = direct(siteServer.port);
  clients.google.redirectUris.push(`${siteUrl}/callback/google`);
  clients.github.redirectUris.push(`${siteUrl}/callback/github`);
  google.addClient(clients.google);
  github.addClient(clients.github);

  for (const user of Object.values(OAUTH_HOSTS_USERS.google)) site.link("google", google.addUser(user).email);
  for (const user of Object.values(OAUTH_HOSTS_USERS.github)) site.link("github", github.addUser(user).email);

  const servers: Listening[] = [googleServer, githubServer, siteServer];
  return {
    hostMap,
    hostMapEnv,
    trustedSpki: FIXTURE_TLS_SPKI,
    google: g,
    github: gh,
    site: siteUrl,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}
