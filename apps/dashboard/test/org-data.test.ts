import type { Browser } from "puppeteer-core";
import { call, closeDatabase, loginBody, newSiteUser } from "@authsvc/devstack";
import { byName, dashboardUrl, launchBrowser, newEmail, Person } from "./dashboard-browser";

// The org's data in the dashboard, metadata only: jobs, credentials, sessions, inboxes and webhooks, each
// made through the real API, and the dashboard's delete and drop buttons acting on them.
let browser: Browser;
let person: Person;
let orgId: string;
let key: string;

beforeAll(async () => {
  browser = await launchBrowser();
  person = await Person.open(browser);
  await person.signUp(newEmail("data"), "dashboard-pass-123");
  orgId = await person.createOrganization("Data org");
  key = await person.createApiKey(orgId, "data");
});
afterAll(async () => {
  await browser?.close();
  await closeDatabase();
});

const rowText = (selector: string) => person.page.$eval(selector, (tr) => (tr as HTMLElement).innerText);

describe("the organization's data", () => {
  it("lists jobs with their outcome, credentials and sessions without a secret; drop and delete work", async () => {
    const user = await newSiteUser();
    const ok = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
    expect(ok.status).toBe(200);
    const refused = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", { username: user.username, password: "wrong-password-1" }),
    });
    expect(refused.status).toBe(422);
    const failedJob = refused.headers.get("x-job-id")!;

    await person.goto(`/o/${orgId}/jobs`);
    await person.press("Jobs", "link");
    expect(await rowText(`tr[data-job-id="${failedJob}"]`)).toMatch(
      /login\s+password\s+127\.0\.0\.1:\d+\s+failed\s+invalid_credentials .+\d+ ?m?s\s+1\s+job_/,
    );
    const page = await person.page.content();
    expect(page).not.toContain(user.password);
    expect(page).not.toContain("wrong-password-1");

    await person.press("Credentials", "link");
    const credentials = await person.text();
    expect(credentials).toContain(user.username);
    expect(credentials).not.toContain(user.password);

    await person.press("Sessions", "link");
    expect(await person.text()).toContain(user.username);
    expect(await person.page.content()).not.toContain(ok.body.cookies[0].value);
    await person.press("Drop");
    expect(await person.text()).toContain("No live sessions.");

    await person.press("Credentials", "link");
    await person.press("Delete");
    expect(await person.text()).toContain("No stored credentials.");
    expect((await call("GET", "/v1/credentials", { key })).body.credentials).toEqual([]);
  });

  it("shows a failed login's job with the redacted screenshot of its last page", async () => {
    const user = await newSiteUser();
    const refused = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", { username: user.username, password: "wrong-password-2" }),
    });
    expect(refused.body.error.code).toBe("invalid_credentials");
    const jobId = refused.headers.get("x-job-id")!;

    await person.goto(`/o/${orgId}/jobs`);
    await person.press(jobId, "link");
    expect(await person.text()).toMatch(/invalid_credentials/);
    const image = await person.page.waitForSelector(byName(`Screenshot of the last page of job ${jobId}`, "image"));
    const loaded = await image!.evaluate((img) =>
      (img as HTMLImageElement).decode().then(() => (img as HTMLImageElement).naturalWidth),
    );
    expect(loaded).toBeGreaterThan(100);
    const { cookie } = await person.credentials();
    const shot = await fetch(`${dashboardUrl()}/o/${orgId}/jobs/${jobId}/screenshot`, { headers: { cookie } });
    expect([shot.status, shot.headers.get("content-type"), shot.headers.get("cache-control")]).toEqual([
      200,
      expect.stringMatching(/^image\//),
      "no-store",
    ]);
    // Another organization's member never gets it.
    const other = await Person.open(browser);
    try {
      await other.signUp(newEmail("other"), "dashboard-pass-123");
      expect((await other.goto(`/o/${orgId}/jobs/${jobId}/screenshot`))!.status()).toBe(404);
    } finally {
      await other.close();
    }
  });

  it("lists the org's mailboxes, and creates a webhook whose secret is shown once", async () => {
    const mailbox = await call("POST", "/v1/mailboxes", { key, body: { label: "signup inbox" } });
    expect(mailbox.status).toBe(201);
    await person.goto(`/o/${orgId}/inboxes`);
    expect(await person.text()).toContain(mailbox.body.address);

    await person.goto(`/o/${orgId}/webhooks`);
    await person.fill("Endpoint URL", `${process.env.E2E_SITES_URL}/__fixture/webhook-sink`);
    await person.press("Create webhook");
    const secret = await person.page.$eval("#new-secret", (e) => e.textContent!.trim());
    expect((await call("GET", "/v1/webhooks", { key })).body.webhooks).toHaveLength(1);
    await person.goto(`/o/${orgId}/webhooks`);
    expect(await person.page.content()).not.toContain(secret);
    expect(await person.page.$(byName("Delete", "button"))).not.toBeNull();
    await person.press("Delete");
    expect((await call("GET", "/v1/webhooks", { key })).body.webhooks).toEqual([]);
  });
});
