import type { Browser } from "puppeteer-core";
import {
  call,
  closeDatabase,
  closeQueues,
  finalQueueJob,
  finishedJob,
  loginBody,
  newSiteUser,
  newTenant,
  runScript,
  sitesUrl,
} from "@authsvc/devstack";
import { byName, launchBrowser, newEmail, Person } from "./dashboard-browser";

// Platform staff replay failed jobs: a login that failed while its site was down succeeds when replayed
// after the site is back (same job id, more attempts); a refused password needs an explicit confirmation.
let browser: Browser;
let staff: Person;
let key: string;
const PASSWORD = "staff-password-123";

const outage = (token: string, down: boolean) =>
  fetch(`${sitesUrl()}/__fixture/outage`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, down }),
  });

/** Polls the job through the API until it has ended again (bounded generously, for a loaded machine). */
const finalJob = (jobId: string): Promise<{ status: string; error?: { code: string } }> =>
  finishedJob(key, jobId, { everyMs: 250 });

/**
 * Staff replay a job once it failed for good in the queue too: the answer and the record say "failed" while
 * the queue is still ending that run (a replay then is refused as busy, as it should be).
 */
const failedForGood = async (jobId: string) =>
  expect(await finalQueueJob("auth", jobId)).toMatchObject({ state: "failed" });

beforeAll(async () => {
  browser = await launchBrowser();
  ({ key } = await newTenant("Replay org"));
  staff = await Person.open(browser);
  const email = newEmail("staff");
  await staff.signUp(email, PASSWORD);
  expect((await runScript("apps/cli/src/main.ts", ["admin", "grant", email])).code).toBe(0);
});
afterAll(async () => {
  await browser?.close();
  await closeQueues();
  await closeDatabase();
});

describe("the admin area", () => {
  it("is only for platform staff: anyone else gets not found", async () => {
    const someone = await Person.open(browser);
    try {
      await someone.signUp(newEmail("nobody"), PASSWORD);
      for (const path of ["/admin/failed-jobs", "/admin/queues"])
        expect((await someone.goto(path))!.status()).toBe(404);
      expect(await someone.page.$(byName("Admin", "link"))).toBeNull();
    } finally {
      await someone.close();
    }
    // bull-board renders under our CSP, inside the admin area, listing our queues.
    expect((await staff.goto("/admin/queues"))!.status()).toBe(200);
    await staff.page.waitForFunction(
      () => /webhooks/.test(document.body.innerText) && /maintenance/.test(document.body.innerText),
      { timeout: 15_000 },
    );
  });

  it("replays a job that failed because the site was down, once the site is back, and it succeeds", async () => {
    const token = `down${Date.now().toString(36)}`;
    const user = await newSiteUser();
    await outage(token, true);
    const failed = await call("POST", "/v1/login", {
      key,
      body: { domain: `${sitesUrl()}/outage/${token}/login`, login_method: "password", cred: user },
    });
    expect([failed.status, failed.body.error.code]).toEqual([502, "target_unreachable"]);
    const jobId = failed.headers.get("x-job-id")!;
    const before = await call("GET", `/v1/jobs/${jobId}`, { key });
    await failedForGood(jobId);
    await outage(token, false);

    await staff.goto("/orgs");
    await staff.press("Admin", "link");
    await staff.press("Failed jobs", "link");
    expect(await staff.page.$(byName("Failed jobs", "heading"))).not.toBeNull();
    await staff.fill("Site", `/outage/${token}/`);
    await staff.page.select("#f-code", "target_unreachable");
    await staff.press("Filter");
    const row = await staff.page.waitForSelector(`tr[data-job-id="${jobId}"]`);
    const replay = await row!.waitForSelector(byName("Replay", "button"));
    await Promise.all([staff.page.waitForNavigation(), replay!.click()]);
    expect(await staff.text()).toContain(`Replaying 1 job: ${jobId}`);

    const after = await finalJob(jobId);
    expect(after.status).toBe("succeeded");
    const record = await call("GET", `/v1/jobs/${jobId}`, { key });
    expect(record.body.result.cookies.length).toBeGreaterThan(0);
    await staff.goto(`/admin/jobs/${jobId}`);
    expect(await staff.page.$eval("#job-status", (e) => e.textContent)).toBe("succeeded");
    expect(Number(await staff.page.$eval("#job-attempts", (e) => e.textContent))).toBeGreaterThan(
      Number(before.body.attempts ?? 1),
    );
  });

  it("replays a refused password only after the explicit confirmation", async () => {
    const user = await newSiteUser();
    const refused = await call("POST", "/v1/login", {
      key,
      body: loginBody("classic", { username: user.username, password: "not-the-password" }),
    });
    expect(refused.body.error.code).toBe("invalid_credentials");
    const jobId = refused.headers.get("x-job-id")!;
    await failedForGood(jobId);

    await staff.goto(`/admin/failed-jobs?code=invalid_credentials`);
    const checkbox = await staff.page.waitForSelector(byName(`Select ${jobId}`, "checkbox"));
    await checkbox!.click();
    const selection = await staff.page.waitForSelector("fieldset");
    const replay = await selection!.waitForSelector(byName("Replay", "button"));
    await Promise.all([staff.page.waitForNavigation(), replay!.click()]);
    expect(await staff.text()).toContain("Confirm: the site refused these passwords");
    // Not replayed yet: the job is still the failed one.
    expect((await call("GET", `/v1/jobs/${jobId}`, { key })).body.status).toBe("failed");

    await staff.press("Replay anyway");
    expect(await staff.text()).toContain(`Replaying 1 job: ${jobId}`);
    const after = await finalJob(jobId);
    expect([after.status, after.error?.code]).toEqual(["failed", "invalid_credentials"]);
  });
});
