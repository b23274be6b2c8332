import type { Browser } from "puppeteer-core";
import { newTotpSecret, parseTotpSecret, totpCode } from "@authsvc/crypto";
import { call, closeDatabase, newSiteUser, newTenant, sitesUrl, waitFor } from "@authsvc/devstack";
import { byName, launchBrowser } from "./dashboard-browser";

let browser: Browser;
let tenant: Awaited<ReturnType<typeof newTenant>>;

beforeAll(async () => {
  [browser, tenant] = await Promise.all([launchBrowser(), newTenant("Hosted hand-off org")]);
});
afterAll(async () => {
  await browser?.close();
  await closeDatabase();
});

const job = async (jobId: string) => (await call("GET", `/v1/jobs/${jobId}`, { key: tenant.key })).body;

describe("the hosted hand-off page", () => {
  it("shows the browser tab live; a person clicks the code field in it, types the code and presses Enter, and the caller gets the session", async () => {
    const totpSecret = newTotpSecret();
    const user = await newSiteUser(undefined, { totpSecret });
    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: `${sitesUrl()}/cases/otp-prompt/login`, login_method: "password", cred: user, useCache: false, allowHandoff: true },
    });
    expect([res.status, res.body.status]).toEqual([202, "needs_input"]);
    const handoffUrl = res.body.input.handoffUrl as string;
    expect(handoffUrl).toMatch(new RegExp(`^${process.env.E2E_DASHBOARD_URL}/handoff/${res.body.jobId}\\.1\\.[A-Za-z0-9_-]{43}$`));

    // The person: no API key, no account; the page names the organization and the site.
    const person = await (await browser.createBrowserContext()).newPage();
    expect((await person.goto(handoffUrl, { waitUntil: "domcontentloaded" }))!.status()).toBe(200);
    const text = await person.$eval("main", (m) => (m as HTMLElement).innerText);
    expect(text).toContain("Hosted hand-off org");
    expect(text).toContain(new URL(sitesUrl()).origin);
    const status = await person.waitForSelector("[role=status]");
    expect(await status!.evaluate((s) => s.textContent)).toMatch(/Waiting for you\. The site says: .*code/i);

    // The live view shows the site's code prompt once its first frame arrived.
    const view = (await person.waitForSelector(byName("Live view")))!;
    const size = await waitFor("a frame of the live view", () =>
      view.evaluate((img) => ((img as HTMLImageElement).naturalWidth > 0 ? { width: Number((img as HTMLImageElement).dataset.pageWidth), height: Number((img as HTMLImageElement).dataset.pageHeight) } : null)),
    );
    // Where the code field is on the site's page, at the size the live view shows it (the same page, the same Chromium).
    const probe = await (await browser.createBrowserContext()).newPage();
    await probe.setViewport(size);
    await probe.goto(`${sitesUrl()}/cases/otp-prompt/verify`, { waitUntil: "domcontentloaded" });
    const field = (await (await probe.waitForSelector("input[name=otp]"))!.boundingBox())!;
    await probe.browserContext().close();

    const box = (await view.boundingBox())!;
    await person.mouse.click(box.x + ((field.x + field.width / 2) * box.width) / size.width, box.y + ((field.y + field.height / 2) * box.height) / size.height);
    await person.keyboard.type(totpCode(parseTotpSecret(totpSecret), Date.now()));
    const lastKey = Date.now();
    await person.keyboard.press("Enter");

    const done = await waitFor("the job signed in", async () => {
      const j = await job(res.body.jobId);
      return j.status === "succeeded" || j.status === "failed" ? j : null;
    });
    expect(done.status).toBe("succeeded");
    process.stdout.write(`hand-off: ${Date.now() - lastKey} ms from the person's last key to the caller's session\n`);
    const account = await fetch(`${sitesUrl()}/cases/otp-prompt/account`, { headers: { cookie: done.result.cookies.map((c: any) => `${c.name}=${c.value}`).join("; ") }, redirect: "manual" });
    expect(account.status).toBe(200);

    // The status line says so, and the view is gone; the link is spent.
    await person.waitForFunction(() => document.querySelector("[role=status]")?.textContent?.startsWith("Signed in"));
    expect(await view.evaluate((img) => (img as HTMLImageElement).hidden)).toBe(true);
    expect((await fetch(handoffUrl)).status).toBe(410);
    expect((await fetch(handoffUrl.replace(/.{4}$/, "AAAA"))).status).toBe(404);
    await person.browserContext().close();
  });
});
