import { chromiumPath } from "@authsvc/config";
import { chromium, type Browser } from "playwright-core";
import { IDB_SESSION } from "@authsvc/test-sites";
import { call, closeDatabase, loginBody, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";

// The promise of `storageState`: a Playwright user loads it unchanged and is signed in.
let browser: Browser;
let key: string;
beforeAll(async () => {
  ({ key } = await newTenant("Playwright org"));
  browser = await chromium.launch({
    executablePath: chromiumPath("full"),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
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

  it("returns and restores a session that lives only in IndexedDB (Firebase Auth's way)", async () => {
    const user = await newSiteUser("idb-password-1", { email: true });
    const res = await call("POST", "/v1/login", {
      key,
      body: { domain: `${sitesUrl()}/idb/login`, login_method: "password", cred: user },
    });
    expect(res.status).toBe(200);
    expect(res.body.cookies).toEqual([]);
    const [origin] = res.body.storageState.origins;
    expect(origin).toMatchObject({ origin: sitesUrl(), localStorage: [] });
    const database = origin.indexedDB.find((d: any) => d.name === IDB_SESSION.database);
    expect(database.stores).toEqual([
      expect.objectContaining({
        name: IDB_SESSION.store,
        keyPath: "fbase_key",
        autoIncrement: false,
        indexes: [],
        records: [expect.objectContaining({ value: expect.any(Object) })],
      }),
    ]);

    const context = await browser.newContext({ storageState: res.body.storageState });
    const page = await context.newPage();
    await page.goto(`${sitesUrl()}/idb/console`);
    await expect(page.locator("#who").textContent({ timeout: 5000 })).resolves.toBe(user.username);
    await context.close();

    // Without its IndexedDB, the same answer does not sign in: the capture is what makes it work.
    const bare = await browser.newContext({
      storageState: { cookies: res.body.cookies, origins: [{ origin: sitesUrl(), localStorage: [] }] },
    });
    const other = await bare.newPage();
    await other.goto(`${sitesUrl()}/idb/console`);
    await expect(other.locator("h1").textContent({ timeout: 5000 })).resolves.toBe("Sign in to Console");
    await bare.close();
  });
});
