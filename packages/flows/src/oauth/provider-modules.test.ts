import { BrowserHost, TargetGuard } from "@authsvc/browser";
import { HostMap } from "@authsvc/egress";
import { freshTotpCode, parseTotpSecret } from "@authsvc/crypto";
import { OAUTH_HOSTS_USERS, type OAuthHosts, startOAuthHosts } from "@authsvc/test-sites";
import { LoginFlowError } from "../flow-error";
import { oauthLogin, type OAuthLoginResult } from "./oauth-login";
import { FLOW_DEADLINE_MS, testBrowserHost } from "../testing/browser-and-sites";

// Google's and GitHub's modules, chosen by host as in production: the fixtures are served under
// accounts.google.com and github.com through the test-only host map (over TLS, as Chromium's HSTS
// preload list demands), and Fabrikam Boards offers both buttons.
let hosts: OAuthHosts;
let host: BrowserHost;
let guard: TargetGuard;
const steps: string[] = [];
beforeAll(async () => {
  hosts = await startOAuthHosts();
  guard = new TargetGuard(["loopback"], undefined, new HostMap(hosts.hostMap));
  host = testBrowserHost({ guard, trustedSpki: [hosts.trustedSpki] });
});
afterAll(async () => {
  await host?.close();
  await hosts?.close();
});

function login(
  provider: "google" | "github",
  account: { identifier: string; password: string; totpSecret?: string },
): Promise<OAuthLoginResult> {
  steps.length = 0;
  const totp = account.totpSecret ? () => freshTotpCode(parseTotpSecret(account.totpSecret!)) : undefined;
  return host.withPage((page) =>
    oauthLogin(
      page,
      {
        loginUrl: `${hosts.site}/login`,
        provider,
        account: { identifier: account.identifier, password: account.password, totp },
      },
      { guard, timeoutMs: FLOW_DEADLINE_MS, onStep: (s) => steps.push(s) },
    ),
  );
}

async function opensAccount(cookies: Array<{ name: string; value: string; domain: string }>): Promise<string> {
  const header = cookies
    .filter((c) => c.domain === "127.0.0.1")
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
  const res = await fetch(`${hosts.site}/account`, { headers: { cookie: header }, redirect: "manual" });
  return res.status === 200 ? await res.text() : `HTTP ${res.status}`;
}

const passwordsTyped = async (fixture: OAuthHosts["google"], id: string): Promise<number> =>
  (
    (await (await fetch(`${fixture.directUrl}/__fixture/users/${encodeURIComponent(id)}/passwords`)).json()) as {
      passwords: string[];
    }
  ).passwords.length;

test("Google: identifier, Next, password, Next by its known steps, then consent; the session names Google's origin", async () => {
  const { email, password } = OAUTH_HOSTS_USERS.google.plain;
  const before = await passwordsTyped(hosts.google, email);
  const result = await login("google", { identifier: email, password });
  expect(await opensAccount(result.session.cookies)).toContain(email);
  expect(result.session.origins).toContain("https://accounts.google.com");
  expect(steps).not.toContain("Google's page differs from its known steps; detecting the form");
  expect(await passwordsTyped(hosts.google, email)).toBe(before + 1);
});

test("Google: a kept session meets the account chooser; the account is chosen and no password is typed", async () => {
  const { email, password } = OAUTH_HOSTS_USERS.google.plain;
  const first = await login("google", { identifier: email, password });
  const typed = await passwordsTyped(hosts.google, email);
  steps.length = 0;
  const again = await host.withPage((page) =>
    oauthLogin(
      page,
      {
        loginUrl: `${hosts.site}/login`,
        provider: "google",
        account: { identifier: email, password },
        providerCookies: first.providerCookies,
      },
      { guard, timeoutMs: FLOW_DEADLINE_MS, onStep: (s) => steps.push(s) },
    ),
  );
  expect(again.passwordSent).toBe(false);
  expect(steps).toContain("choose the account on Google");
  expect(await passwordsTyped(hosts.google, email)).toBe(typed);
  expect(await opensAccount(again.session.cookies)).toContain(email);
});

test("Google: the 2-Step Verification code", async () => {
  const { email, password, totpSecret } = OAUTH_HOSTS_USERS.google.totp;
  const result = await login("google", { identifier: email, password, totpSecret });
  expect(await opensAccount(result.session.cookies)).toContain(email);
});

test("Google: a wrong password is invalid_credentials", async () => {
  const { email } = OAUTH_HOSTS_USERS.google.plain;
  const err = await login("google", { identifier: email, password: "wrong-password" }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LoginFlowError);
  expect((err as LoginFlowError).code).toBe("invalid_credentials");
});

test("Google: the insecure-browser wall is provider_blocked", async () => {
  const { email, password } = OAUTH_HOSTS_USERS.google.blocked;
  const err = await login("google", { identifier: email, password }).then(
    () => null,
    (e: unknown) => e,
  );
  expect((err as LoginFlowError).code).toBe("provider_blocked");
});

test("GitHub: login and password by its known steps, two-factor code, Authorize", async () => {
  const { login: user, email, password, totpSecret } = OAUTH_HOSTS_USERS.github.totp;
  const result = await login("github", { identifier: user, password, totpSecret });
  expect(await opensAccount(result.session.cookies)).toContain(email);
  expect(result.session.origins).toContain("https://github.com");
  expect(steps).not.toContain("GitHub's page differs from its known steps; detecting the form");
});

test("GitHub: a wrong password is invalid_credentials", async () => {
  const { login: user } = OAUTH_HOSTS_USERS.github.plain;
  const err = await login("github", { identifier: user, password: "wrong-password" }).then(
    () => null,
    (e: unknown) => e,
  );
  expect((err as LoginFlowError).code).toBe("invalid_credentials");
});
