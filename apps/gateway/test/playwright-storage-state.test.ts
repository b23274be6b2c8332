import { chromium, type Browser } from "playwright-core";
import { call, closeDatabase, loginBody, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";

// The promise of `storageState`: a Playwright user loads it unchanged and is signed in.
let browser: Browser;
let key: string;
beforeAll(async () => {
  ({ key } = await newTenant("Playwright org"));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});
afterAll(async () => {
  await browser?.close();
  await closeDatabase();
});

describe("storageState in Playwright", () => {
  it("signs a fresh Playwright context in to the classic site with the returned cookies", async () => {
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    expect(res.status).toBe(200);
    const context = await browser.newContext({ storageState: res.body.storageState });
    const page = await context.newPage();
    await page.goto(`${sitesUrl()}/classic/account`);
    await expect(page.locator("h1").textContent()).resolves.toBe(`Welcome, ${user.username}`);
    await context.close();
  });

  it("restores the single-page app's localStorage token, so the app opens signed in", async () => {
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", { key, body: loginBody("spa", user) });
    expect(res.status).toBe(200);
    const context = await browser.newContext({ storageState: res.body.storageState });
    const page = await context.newPage();
    await page.goto(`${sitesUrl()}/spa/login`);
    await expect(page.locator("#who").textContent({ timeout: 5000 })).resolves.toBe(user.username);
    await context.close();
  });
});
