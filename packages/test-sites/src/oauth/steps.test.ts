import type { Page } from "@authsvc/browser";
import { freshTotpCode, newTotpSecret, parseTotpSecret, totpCode } from "@authsvc/crypto";
import { REFUSALS } from "../signup/kit";
import { ACME_MESSAGES } from "./index";
import { acmeSignIn, alertText, clickControl, clickText, heading, newUser, useOAuthSites } from "./test-kit";

const env = useOAuthSites();

async function startAtSiteA(path = "/login"): Promise<Page> {
  const page = await (await env.context()).newPage();
  await page.goto(`${env.sites.sites.a}${path}`);
  return page;
}

describe("Acme ID's other steps and the sites' other ways in", () => {
  it("signs in through a popup: the popup closes and the opener lands on the account page", async () => {
    const user = newUser(env.sites, ["a"]);
    const page = await startAtSiteA("/login-popup");
    const opened = new Promise<Page>((resolve) => page.once("popup", (popup) => resolve(popup!)));
    await clickControl(page, "Continue with Acme ID");
    const popup = await opened;
    await popup.waitForSelector('input[type="email"]');
    await acmeSignIn(popup, user.email, user.password);
    expect(await heading(popup)).toBe("Northwind Notes wants to access your Acme ID account");
    const closed = new Promise<void>((resolve) => popup.once("close", () => resolve()));
    await Promise.all([page.waitForNavigation(), clickControl(popup, "Allow")]);
    await closed;
    expect(page.url()).toBe(`${env.sites.sites.a}/account`);
    expect(await page.$eval("#email", (e) => e.textContent)).toBe(user.email);
  });

  it("asks for the authenticator code, refuses a wrong one on the same page, then signs in", async () => {
    const secret = newTotpSecret();
    const user = newUser(env.sites, ["a"], { totpSecret: secret });
    const page = await startAtSiteA();
    await clickText(page, "Continue with Acme ID");
    await acmeSignIn(page, user.email, user.password);
    expect(await heading(page)).toBe("Two-step verification");
    const spec = parseTotpSecret(secret);
    const valid = new Set([-1, 0, 1, 2].map((step) => totpCode(spec, Date.now() + step * 30_000)));
    const wrong = ["000000", "111111", "222222", "333333", "444444"].find((code) => !valid.has(code))!;
    await page.type('input[autocomplete="one-time-code"]', wrong);
    await clickText(page, "Verify");
    expect(await alertText(page)).toBe(ACME_MESSAGES.wrongCode);
    await page.type('input[inputmode="numeric"]', await freshTotpCode(spec));
    await clickText(page, "Verify");
    await clickText(page, "Allow");
    expect(page.url()).toBe(`${env.sites.sites.a}/account`);
    expect(env.sites.passwordSubmissions(user.email)).toBe(1);
  });

  it("mails a code after the password and signs in with it", async () => {
    const user = newUser(env.sites, ["a"], { emailCode: true });
    const page = await startAtSiteA();
    await clickText(page, "Continue with Acme ID");
    await acmeSignIn(page, user.email, user.password);
    expect(await page.$eval("main", (m) => m.textContent)).toContain(`We sent a code to ${user.email}`);
    const mail = env.mail.find((m) => m.to === user.email);
    const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
    expect(code).toBeDefined();
    await page.type('input[name="code"]', code === "000000" ? "111111" : "000000");
    await clickText(page, "Verify");
    expect(await alertText(page)).toBe(ACME_MESSAGES.wrongCode);
    await page.type('input[name="code"]', code!);
    await clickText(page, "Verify");
    await clickText(page, "Allow");
    expect(page.url()).toBe(`${env.sites.sites.a}/account`);
  });

  it("signs up with Acme ID: a username (refused when taken) and the terms, then the new account signs in", async () => {
    const user = newUser(env.sites, []);
    const page = await startAtSiteA("/signup");
    expect(await heading(page)).toBe("Create your Northwind Notes account");
    await clickText(page, "Sign up with Acme ID");
    await acmeSignIn(page, user.email, user.password);
    await clickText(page, "Allow");
    expect(page.url()).toBe(`${env.sites.sites.a}/signup/finish`);
    await page.type('input[name="username"]', "agent"); // the seeded agent@acme.test's account on Site A
    await page.click('input[name="terms"]');
    await clickText(page, "Create account");
    expect(await alertText(page)).toBe(REFUSALS.usernameTaken);
    await page.$eval('input[name="username"]', (e) => ((e as HTMLInputElement).value = ""));
    await page.type('input[name="username"]', "newcomer");
    if (!(await page.$eval('input[name="terms"]', (e) => (e as HTMLInputElement).checked)))
      await page.click('input[name="terms"]');
    await clickText(page, "Create account");
    expect(page.url()).toBe(`${env.sites.sites.a}/account`);
    expect(await page.$eval("#email", (e) => e.textContent)).toBe(user.email);
    const { accounts } = (await (await fetch(`${env.sites.sites.a}/__fixture/accounts`)).json()) as {
      accounts: unknown[];
    };
    expect(accounts).toContainEqual({ username: "newcomer", email: user.email });

    // The account is linked now: signing out and in again needs nothing more than the button.
    await clickText(page, "Sign out");
    await clickText(page, "Continue with Acme ID");
    expect(page.url()).toBe(`${env.sites.sites.a}/account`);
  });

  it("keeps each site's session in a persistent HttpOnly cookie of its own name", async () => {
    const user = newUser(env.sites, ["b"]);
    const page = await (await env.context()).newPage();
    await page.goto(`${env.sites.sites.b}/login`);
    await clickText(page, "Continue with Acme ID");
    await acmeSignIn(page, user.email, user.password);
    await clickText(page, "Allow");
    const cookies = await page.browserContext().cookies();
    const session = cookies.find((c) => c.name === "contoso_sid");
    expect(session).toMatchObject({ httpOnly: true, session: false });
    const check = (await (
      await fetch(`${env.sites.sites.b}/__fixture/sessions/${encodeURIComponent(session!.value)}`)
    ).json()) as { valid: boolean };
    expect(check.valid).toBe(true);
    expect(cookies.map((c) => c.name)).toContain("_session");
  });

  it("offers Google and GitHub buttons that are not configured, and a page without Acme ID", async () => {
    const page = await startAtSiteA("/login-no-provider");
    const controls = await page.$$eval("a, button", (all) => all.map((e) => e.textContent?.trim()));
    expect(controls).toEqual(["Log in", "Continue with Google", "Create an account"]);
    const google = await page.goto(`${env.sites.sites.a}/auth/google`);
    expect(google?.status()).toBe(404);
  });
});
