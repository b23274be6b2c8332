import { BrowserHost, TargetGuard } from "@authsvc/browser";
import type { Cookie } from "@authsvc/contracts";
import { freshTotpCode, newTotpSecret, parseTotpSecret } from "@authsvc/crypto";
import { ACME_USERS, type OAuthSites, startOAuthSites } from "@authsvc/test-sites";
import { LoginFlowError } from "../flow-error";
import { oauthLogin, type OAuthLoginInput, type OAuthLoginResult } from "./oauth-login";
import { FLOW_DEADLINE_MS, testBrowserHost } from "../testing/browser-and-sites";

// The OAuth flow against a real OpenID Connect provider (oidc-provider) and relying parties built with
// openid-client: the provider's own sign-in, TOTP and consent pages, same tab and popup.
const guard = new TargetGuard(["loopback"]);
let host: BrowserHost;
let oauth: OAuthSites;
beforeAll(async () => {
  oauth = await startOAuthSites({ outbox: { mail: async () => undefined } });
  host = testBrowserHost({ guard });
});
afterAll(async () => {
  await host?.close();
  await oauth?.close();
});

let seq = 0;
/** A provider account of its own, linked on both sites. */
function newAccount(extra: { totpSecret?: string } = {}): { email: string; password: string; totpSecret?: string } {
  const account = { email: `oauth-${++seq}-${Date.now()}@acme.test`, password: `acme-pw-${seq}`, ...extra };
  oauth.addUser(account);
  oauth.link("a", account.email);
  oauth.link("b", account.email);
  return account;
}

function login(
  path: string,
  account: { email: string; password: string; totpSecret?: string },
  more: Partial<OAuthLoginInput> = {},
  site: "a" | "b" = "a",
): Promise<OAuthLoginResult> {
  const totp = account.totpSecret ? () => freshTotpCode(parseTotpSecret(account.totpSecret!)) : undefined;
  return host.withPage((page) =>
    oauthLogin(
      page,
      {
        loginUrl: `${oauth.sites[site]}${path}`,
        provider: "Acme ID",
        account: { identifier: account.email, password: account.password, totp },
        ...more,
      },
      {
        guard,
        timeoutMs: FLOW_DEADLINE_MS,
        onStep: process.env.OAUTH_STEPS ? (s) => console.log(Date.now() % 100000, s) : undefined,
      },
    ),
  );
}

async function failureOf(promise: Promise<unknown>): Promise<LoginFlowError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LoginFlowError);
  return err as LoginFlowError;
}

/** Whether the session's cookies open the site's signed-in page. */
async function opensAccount(site: "a" | "b", cookies: Cookie[]): Promise<string> {
  const header = cookies
    .filter((c) => c.domain === "127.0.0.1")
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
  const res = await fetch(`${oauth.sites[site]}/account`, { headers: { cookie: header }, redirect: "manual" });
  return res.status === 200 ? await res.text() : `HTTP ${res.status}`;
}

test("signs in through the provider in the same tab, allowing the site once; the cookies open the account page", async () => {
  const account = newAccount();
  const result = await login("/login", account);
  expect(result.passwordSent).toBe(true);
  expect(oauth.passwordSubmissions(account.email)).toBe(1);
  expect(await opensAccount("a", result.session.cookies)).toContain(account.email);
  // The answer names both the site and the provider; the provider's cookies are kept apart.
  expect(result.session.origins).toEqual(expect.arrayContaining([oauth.sites.a, oauth.issuer]));
  expect(result.providerCookies.length).toBeGreaterThan(0);
  expect(result.providerCookies.every((c) => !c.name.startsWith("northwind"))).toBe(true);
});

test("a kept provider session signs in on a second site without the password", async () => {
  const account = newAccount();
  const first = await login("/login", account, {}, "a");
  const second = await login("/login", account, { providerCookies: first.providerCookies }, "b");
  expect(second.passwordSent).toBe(false);
  expect(oauth.passwordSubmissions(account.email)).toBe(1);
  expect(await opensAccount("b", second.session.cookies)).toContain(account.email);
});

test("the provider in a popup window", async () => {
  const account = newAccount();
  const result = await login("/login-popup", account);
  expect(await opensAccount("a", result.session.cookies)).toContain(account.email);
});

test("answers the provider's TOTP prompt", async () => {
  const account = newAccount({ totpSecret: newTotpSecret() });
  const result = await login("/login", account);
  expect(await opensAccount("a", result.session.cookies)).toContain(account.email);
});

test("a wrong password is invalid_credentials after exactly one submission at the provider", async () => {
  const account = newAccount();
  const err = await failureOf(login("/login", { ...account, password: "not-the-password" }));
  expect(err.code).toBe("invalid_credentials");
  expect(err.retryable).toBe(false);
  expect(oauth.passwordSubmissions(account.email)).toBe(1);
});

test("a provider TOTP without a secret is mfa_required", async () => {
  const err = await failureOf(login("/login", { email: ACME_USERS.totp.email, password: ACME_USERS.totp.password }));
  expect(err.code).toBe("mfa_required");
});

test("the provider's insecure-browser wall is provider_blocked", async () => {
  const err = await failureOf(login("/login", ACME_USERS.blocked));
  expect(err.code).toBe("provider_blocked");
});

test("a site that knows no account for the provider account is account_not_linked", async () => {
  const err = await failureOf(login("/login", ACME_USERS.new));
  expect(err.code).toBe("account_not_linked");
  expect(err.message).toMatch(/No Northwind Notes account is linked/);
});

test("a page without the provider's button is form_not_found naming the provider, and nothing is typed", async () => {
  const account = newAccount();
  const err = await failureOf(login("/login-no-provider", account));
  expect(err.code).toBe("form_not_found");
  expect(err.message).toMatch(/Acme ID/);
  expect(oauth.passwordSubmissions(account.email)).toBe(0);
});

test("the provider named by its issuer URL", async () => {
  const account = newAccount();
  const result = await login("/login", account, { provider: oauth.issuer });
  expect(await opensAccount("a", result.session.cookies)).toContain(account.email);
});

test("signs up through the provider, then gives the site the username and terms it still asks", async () => {
  const account = { email: `oauth-signup-${Date.now()}@acme.test`, password: "acme-signup-pw" };
  oauth.addUser(account);
  const result = await login("/signup", account, { signup: { username: `newbie${Date.now() % 100000}` } });
  expect(result.username).toMatch(/^newbie/);
  expect(await opensAccount("a", result.session.cookies)).toContain(account.email);
  // The account exists on the site now: the next OAuth login signs in.
  const again = await login("/login", account, { providerCookies: result.providerCookies });
  expect(await opensAccount("a", again.session.cookies)).toContain(account.email);
});

test("a provider that does not let the account grant access is consent_denied", async () => {
  const account = { email: `oauth-denied-${Date.now()}@acme.test`, password: "acme-denied-pw", consentDenied: true };
  oauth.addUser(account);
  oauth.link("a", account.email);
  const err = await failureOf(login("/login", account));
  expect(err.code).toBe("consent_denied");
  expect(err.retryable).toBe(false);
});

test("a site that loses the sign-in (its public page, a visitor cookie, no session) is never a success", async () => {
  const account = newAccount();
  const res = await fetch(`${oauth.sites.a}/__fixture/links`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: account.email, loseSignIn: true }),
  });
  expect(res.status).toBe(200);
  const err = await failureOf(login("/login", account));
  expect(err.code).toBe("login_unconfirmed");
  expect(err.retryable).toBe(false);
});
