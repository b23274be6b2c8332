import { parseTotpSecret, totpCode } from "@authsvc/crypto";
import { FABRIKAM_MESSAGES, GITHUB_MESSAGES, OAUTH_HOSTS_USERS } from "@authsvc/test-sites";
import type { Page } from "@authsvc/browser";
import { clickAndLoad, text, typeInto, useOAuthHosts } from "./browser-through-map";

const env = useOAuthHosts();
const users = OAUTH_HOSTS_USERS.github;

async function signInAtGitHub(page: Page, login: string, password: string): Promise<void> {
  await page.goto(`${env.hosts.site}/login`);
  await clickAndLoad(page, "a.social.github");
  const url = new URL(page.url());
  expect([url.host, url.pathname]).toEqual(["github.com", "/login"]);
  expect(url.searchParams.get("return_to")).toMatch(/^\/login\/oauth\/authorize\?client_id=/);
  expect(await text(page, "h1")).toBe("Sign in to GitHub");
  await typeInto(page, "input#login_field[name=login]", login);
  await typeInto(page, "input#password[name=password]", password);
  await clickAndLoad(page, "input[type=submit][name=commit][value='Sign in']");
}

async function authorize(page: Page): Promise<void> {
  expect(await text(page, "h2")).toBe("Authorize Fabrikam Boards");
  // The green button starts disabled, as GitHub's does.
  await page.waitForSelector(".js-oauth-authorize-btn:not([disabled])");
  expect(await text(page, ".js-oauth-authorize-btn")).toBe("Authorize fabrikam");
  await clickAndLoad(page, ".js-oauth-authorize-btn");
}

describe("GitHub-like fixture under github.com", () => {
  it("signs in, authorizes once and lands on Fabrikam; signed in on github.com, it goes straight back", async () => {
    await env.host.withPage(async (page) => {
      await signInAtGitHub(page, users.plain.login, users.plain.password);
      expect(await page.content()).toContain(`wants to access your <strong>${users.plain.login}</strong> account`);
      await authorize(page);
      expect(new URL(page.url()).pathname).toBe("/account");
      expect(await text(page, "#account-email")).toBe(users.plain.email);
      await clickAndLoad(page, "a[href='/logout']");
      await clickAndLoad(page, "a.social.github");
      expect(await text(page, "#account-email")).toBe(users.plain.email);
    });
  });

  it("shows GitHub's flash for a wrong password", async () => {
    await env.host.withPage(async (page) => {
      await signInAtGitHub(page, users.plain.email, "not-the-password");
      expect(await text(page, ".flash-error .js-flash-alert")).toBe(GITHUB_MESSAGES.wrong);
      expect(new URL(page.url()).pathname).toBe("/session");
    });
  });

  it("asks a TOTP user for the authentication code, refusing a wrong one", async () => {
    await env.host.withPage(async (page) => {
      await signInAtGitHub(page, users.totp.login, users.totp.password);
      expect(new URL(page.url()).pathname).toBe("/sessions/two-factor/app");
      expect(await text(page, "h1")).toBe("Two-factor authentication");
      const spec = parseTotpSecret(users.totp.totpSecret);
      await typeInto(
        page,
        "input#app_totp[name=app_otp][autocomplete=one-time-code]",
        totpCode(spec, Date.now()) === "000000" ? "111111" : "000000",
      );
      await clickAndLoad(page, "button[type=submit]");
      expect(await text(page, ".js-flash-alert")).toBe(GITHUB_MESSAGES.twoFactorFailed);
      await typeInto(page, "#app_totp", totpCode(spec, Date.now()));
      await clickAndLoad(page, "button[type=submit]");
      await authorize(page);
      expect(await text(page, "#account-email")).toBe(users.totp.email);
    });
  });

  it("sends a GitHub account that no Fabrikam account is linked to back to Fabrikam's login with its message", async () => {
    const added = await fetch(`${env.hosts.github.directUrl}/__fixture/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "stranger", email: "stranger@github.test", password: "stranger-password" }),
    });
    expect(added.status).toBe(201);
    await env.host.withPage(async (page) => {
      await signInAtGitHub(page, "stranger", "stranger-password");
      await authorize(page);
      expect(new URL(page.url()).pathname).toBe("/login");
      expect(await text(page, "[role=alert]")).toBe(FABRIKAM_MESSAGES.unlinked("github"));
    });
  });
});
