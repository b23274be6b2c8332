import { parseTotpSecret, totpCode } from "@authsvc/crypto";
import { GOOGLE_MESSAGES, OAUTH_HOSTS_USERS } from "@authsvc/test-sites";
import type { Page } from "@authsvc/browser";
import { clickAndLoad, text, typeInto, useOAuthHosts } from "./browser-through-map";

const env = useOAuthHosts();
const users = OAUTH_HOSTS_USERS.google;

async function startAtGoogle(page: Page): Promise<void> {
  await page.goto(`${env.hosts.site}/login`);
  await clickAndLoad(page, "a.social.google");
  expect(new URL(page.url()).host).toBe("accounts.google.com");
}

async function identifierAndPassword(page: Page, email: string, password: string): Promise<void> {
  expect(await text(page, "#headingText")).toBe("Sign in");
  expect(await text(page, "#headingSubtext")).toBe("to continue to Fabrikam Boards");
  await typeInto(page, "input#identifierId[name=identifier][type=email]", email);
  await clickAndLoad(page, "#identifierNext button");
  expect(await text(page, "#headingText")).toBe("Welcome");
  await typeInto(page, "input[type=password][name=Passwd]", password);
}

describe("Google-like fixture under accounts.google.com", () => {
  it("signs in with email and password, asks consent once, and lands on Fabrikam; a second time the account chooser skips the password", async () => {
    await env.host.withPage(async (page) => {
      await startAtGoogle(page);
      expect(page.url()).toMatch(/^https:\/\/accounts\.google\.com\/v3\/signin\/identifier\?TL=/);
      await identifierAndPassword(page, users.plain.email, users.plain.password);
      await clickAndLoad(page, "#passwordNext button");
      expect(await text(page, "#headingText")).toBe("Sign in to Fabrikam Boards");
      await clickAndLoad(page, "#submit_approve_access");
      expect(new URL(page.url()).pathname).toBe("/account");
      expect(await text(page, "#account-email")).toBe(users.plain.email);

      await clickAndLoad(page, "a[href='/logout']");
      await clickAndLoad(page, "a.social.google");
      expect(await text(page, "#headingText")).toBe("Choose an account");
      expect(await text(page, "#useAnother")).toBe("Use another account");
      await clickAndLoad(page, `[data-identifier="${users.plain.email}"]`);
      expect(await text(page, "#account-email")).toBe(users.plain.email);
    });
  });

  it("shows Google's message for a wrong password and records what was typed", async () => {
    await env.host.withPage(async (page) => {
      await startAtGoogle(page);
      await identifierAndPassword(page, users.plain.email, "not-the-password");
      await page.click("#passwordNext button");
      await page.waitForFunction(
        (m) => document.querySelector(".o6cuMc")?.textContent === m,
        {},
        GOOGLE_MESSAGES.wrongPassword,
      );
      expect(new URL(page.url()).pathname).toBe("/v3/signin/challenge/pwd");
    });
    const answer = await fetch(`${env.hosts.google.directUrl}/__fixture/users/${users.plain.email}/passwords`);
    expect(((await answer.json()) as { passwords: string[] }).passwords).toContain("not-the-password");
  });

  it("asks a TOTP user for the Authenticator code, refusing a wrong one", async () => {
    await env.host.withPage(async (page) => {
      await startAtGoogle(page);
      await identifierAndPassword(page, users.totp.email, users.totp.password);
      await clickAndLoad(page, "#passwordNext button");
      expect(await text(page, "#headingText")).toBe("2-Step Verification");
      expect(await page.content()).toContain(
        "Get a verification code from the <strong>Google Authenticator</strong> app",
      );
      const code = totpCode(parseTotpSecret(users.totp.totpSecret), Date.now());
      await typeInto(page, "input#totpPin[name=totpPin]", code === "000000" ? "111111" : "000000");
      await page.click("#totpNext button");
      await page.waitForFunction(
        (m) => document.querySelector(".o6cuMc")?.textContent === m,
        {},
        GOOGLE_MESSAGES.wrongCode,
      );
      await page.$eval("#totpPin", (el) => ((el as HTMLInputElement).value = ""));
      await page.type("#totpPin", totpCode(parseTotpSecret(users.totp.totpSecret), Date.now()));
      await clickAndLoad(page, "#totpNext button");
      await clickAndLoad(page, "#submit_approve_access");
      expect(await text(page, "#account-email")).toBe(users.totp.email);
    });
  });

  it("tells an unknown email and a blocked account apart", async () => {
    await env.host.withPage(async (page) => {
      await startAtGoogle(page);
      await typeInto(page, "#identifierId", "nobody@gmail.test");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        (m) => document.querySelector(".o6cuMc")?.textContent === m,
        {},
        GOOGLE_MESSAGES.unknown,
      );
      await page.$eval("#identifierId", (el) => ((el as HTMLInputElement).value = ""));
      await page.type("#identifierId", users.blocked.email);
      await clickAndLoad(page, "#identifierNext button");
      expect(await text(page, "#headingText")).toBe("Couldn't sign you in");
      expect(await page.content()).toContain("This browser or app may not be secure.");
    });
  });
});
