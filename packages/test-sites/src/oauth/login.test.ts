import { ACME_MESSAGES, SITE_MESSAGES } from "./index";
import { acmeSignIn, alertText, clickText, heading, newUser, useOAuthSites } from "./test-kit";

const env = useOAuthSites();

describe("signing in with Acme ID", () => {
  it("signs in on Site A after Acme ID's sign-in and consent, and Site B reuses the provider session", async () => {
    const user = newUser(env.sites, ["a", "b"]);
    const page = await (await env.context()).newPage();
    await page.goto(`${env.sites.sites.a}/login`);
    await clickText(page, "Continue with Acme ID");
    expect(new URL(page.url()).origin).toBe(env.sites.issuer);
    expect(await heading(page)).toBe("Sign in to Acme ID");
    await acmeSignIn(page, user.email, user.password);
    expect(await heading(page)).toBe("Northwind Notes wants to access your Acme ID account");
    await clickText(page, "Allow");
    expect(page.url()).toBe(`${env.sites.sites.a}/account`);
    expect(await heading(page)).toBe("Your notes");
    expect(await page.$eval("#email", (e) => e.textContent)).toBe(user.email);

    // Site B: the provider's session cookie signs the user in; only Contoso's own consent is asked.
    await page.goto(`${env.sites.sites.b}/login`);
    await clickText(page, "Continue with Acme ID");
    expect(await heading(page)).toBe("Contoso Tasks wants to access your Acme ID account");
    await clickText(page, "Allow");
    expect(page.url()).toBe(`${env.sites.sites.b}/account`);
    expect(await heading(page)).toBe("Your tasks");
    expect(env.sites.passwordSubmissions(user.email)).toBe(1);
  });

  it("asks for consent once: a later sign-in, even in a new browser, goes straight back to the site", async () => {
    const user = newUser(env.sites, ["a"]);
    const first = await (await env.context()).newPage();
    await first.goto(`${env.sites.sites.a}/login`);
    await clickText(first, "Continue with Acme ID");
    await acmeSignIn(first, user.email, user.password);
    await clickText(first, "Allow");
    await clickText(first, "Sign out");
    expect(first.url()).toBe(`${env.sites.sites.a}/login`);
    // Same browser: the provider session and the grant both hold, so no page of Acme ID is shown.
    await clickText(first, "Continue with Acme ID");
    expect(first.url()).toBe(`${env.sites.sites.a}/account`);

    const second = await (await env.context()).newPage();
    await second.goto(`${env.sites.sites.a}/login`);
    await clickText(second, "Continue with Acme ID");
    await acmeSignIn(second, user.email, user.password);
    expect(second.url()).toBe(`${env.sites.sites.a}/account`);
    expect(env.sites.passwordSubmissions(user.email)).toBe(2);
  });

  it("refuses a wrong password on Acme ID's form and counts the submission", async () => {
    const user = newUser(env.sites, ["a"]);
    const page = await (await env.context()).newPage();
    await page.goto(`${env.sites.sites.a}/login`);
    await clickText(page, "Continue with Acme ID");
    await acmeSignIn(page, user.email, "not-the-password");
    expect(await heading(page)).toBe("Sign in to Acme ID");
    expect(await alertText(page)).toBe(ACME_MESSAGES.wrongPassword);
    expect(env.sites.passwordSubmissions(user.email)).toBe(1);
    // The same form still works after a refusal.
    await page.$eval('input[type="email"]', (e) => ((e as HTMLInputElement).value = ""));
    await acmeSignIn(page, user.email, user.password);
    expect(await heading(page)).toBe("Northwind Notes wants to access your Acme ID account");
  });

  it("sends an account the site does not know back to its login page with the site's refusal", async () => {
    const user = newUser(env.sites, []);
    const page = await (await env.context()).newPage();
    await page.goto(`${env.sites.sites.a}/login`);
    await clickText(page, "Continue with Acme ID");
    await acmeSignIn(page, user.email, user.password);
    await clickText(page, "Allow");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await alertText(page)).toBe(
      SITE_MESSAGES.notLinked({ key: "northwind", name: "Northwind Notes", heading: "" }),
    );
    expect(await alertText(page)).toBe("No Northwind Notes account is linked to this Acme ID account. Sign up first.");
  });

  it("tells the site the user cancelled at the consent page", async () => {
    const user = newUser(env.sites, ["a"]);
    const page = await (await env.context()).newPage();
    await page.goto(`${env.sites.sites.a}/login`);
    await clickText(page, "Continue with Acme ID");
    await acmeSignIn(page, user.email, user.password);
    await clickText(page, "Cancel");
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(await alertText(page)).toBe("You cancelled signing in with Acme ID.");
    const account = await page.goto(`${env.sites.sites.a}/account`);
    expect(new URL(account!.url()).pathname).toBe("/login");
  });

  it("shows the blocked wall after a correct password, with no form", async () => {
    const user = newUser(env.sites, ["a"], { blocked: true });
    const page = await (await env.context()).newPage();
    await page.goto(`${env.sites.sites.a}/login`);
    await clickText(page, "Continue with Acme ID");
    await acmeSignIn(page, user.email, user.password);
    expect(await heading(page)).toBe("Couldn't sign you in");
    expect(await page.$eval("main", (m) => m.textContent)).toContain(
      "This browser or app may not be secure. Try using a different browser.",
    );
    expect(await page.$("form")).toBeNull();
  });
});
