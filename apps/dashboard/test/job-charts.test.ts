import type { Browser, ConsoleMessage } from "puppeteer-core";
import {
  call,
  closeDatabase,
  closeQueues,
  database,
  finalJobRecord,
  loginBody,
  maintenanceRunsSince,
  newSiteUser,
  recordPastJobs,
  runScript,
  type PastJob,
} from "@authsvc/devstack";
import { byName, dashboardUrl, launchBrowser, newEmail, Person } from "./dashboard-browser";

// The operator's view: an organization's Jobs page and the Admin area chart the job stats (logins per hour
// by outcome, failure codes against the week before, sites with success rates and times, a site whose
// success rate dropped) under the dashboard's CSP, and page through searched job lists. A week of history
// is recorded as finished job records; two real logins show that the workers' maintenance counts new jobs.
let browser: Browser;
let owner: Person;
let staff: Person;
let orgId: string;
let key: string;
const tag = `${process.pid}x${Date.now().toString(36)}`;
const ORG_NAME = `Charts org ${tag}`;
const CHANGED = `changed-${tag}.example`;
const STEADY = `steady-${tag}.example`;
const PASSWORD = "charts-password-123";
const HOUR = 3_600_000;
const cspErrors: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await Person.open(browser);
  await owner.signUp(newEmail("charts"), PASSWORD);
  orgId = await owner.createOrganization(ORG_NAME);
  key = await owner.createApiKey(orgId, "charts");
  staff = await Person.open(browser);
  const staffEmail = newEmail("charts-staff");
  await staff.signUp(staffEmail, PASSWORD);
  expect((await runScript("apps/cli/src/main.ts", ["admin", "grant", staffEmail])).code).toBe(0);
  for (const person of [owner, staff]) {
    person.page.on("console", (m: ConsoleMessage) => {
      if (/Content.Security.Policy/i.test(m.text())) cspErrors.push(m.text());
    });
  }

  // Many jobs share one creation time (a keyset page must still hold each once).
  const now = Date.now();
  const at = (ms: number) => new Date(now - ms);
  const history: PastJob[] = [];
  // The changed site: 90 of 100 succeeded in the week before; in the last day 20 of 40, the rest form_not_found.
  for (let i = 0; i < 100; i++)
    history.push({
      loginUrl: `https://${CHANGED}/login`,
      outcome: i < 90 ? "succeeded" : "timeout",
      finishedAt: at((2 + (i % 5)) * 24 * HOUR),
    });
  for (let i = 0; i < 40; i++)
    history.push({
      loginUrl: `https://${CHANGED}/login`,
      outcome: i < 20 ? "succeeded" : "form_not_found",
      finishedAt: at((1 + (i % 5)) * HOUR),
      durationMs: 2100,
    });
  for (let i = 0; i < 90; i++)
    history.push({
      loginUrl: `https://${STEADY}/login`,
      outcome: "succeeded",
      finishedAt: at(i < 30 ? (1 + (i % 20)) * HOUR : (2 + (i % 5)) * 24 * HOUR),
    });
  await recordPastJobs(database(), orgId, history);
  // Hours long past are not counted again by the workers' runs: count them as an upgrade's first run would.
  await database().jobStats.recompute(at(8 * 24 * HOUR + HOUR), new Date(now + HOUR));

  // Two real logins; then a stats run and a per-site run that started after they ended.
  const user = await newSiteUser();
  const ok = await call("POST", "/v1/login", { key, body: loginBody("classic", user) });
  const refused = await call("POST", "/v1/login", {
    key,
    body: loginBody("classic", { username: user.username, password: "wrong-password-9" }),
  });
  expect([ok.status, refused.status]).toEqual([200, 422]);
  for (const answer of [ok, refused]) await finalJobRecord(orgId, answer.headers.get("x-job-id")!);
  await maintenanceRunsSince("job-stats", Date.now(), 1);
  await maintenanceRunsSince("job-stats-sites", Date.now(), 1);
});
afterAll(async () => {
  await browser?.close();
  await closeQueues();
  await closeDatabase();
});

/** The rows of a chart's numbers table (under its "Numbers: …" disclosure), cell texts. */
async function numbers(person: Person, title: string): Promise<string[][]> {
  const summary = await person.page.waitForSelector(`::-p-text(Numbers: ${title})`);
  await summary!.click();
  return summary!.evaluate((el) =>
    [...el.parentElement!.querySelectorAll("tbody tr")].map((r) =>
      [...r.querySelectorAll("td")].map((td) => (td as HTMLElement).innerText.trim()),
    ),
  );
}

const count = (text: string) => Number(text.replace(/,/g, ""));

describe("the organization's Jobs page", () => {
  it("charts logins per hour by outcome, the failure codes that rose and a site whose success rate dropped, in words and numbers", async () => {
    await owner.goto(`/o/${orgId}/jobs`);
    expect(await owner.page.$(byName("Logins per hour by outcome, last day", "image"))).not.toBeNull();
    expect(
      await owner.page.$(byName("Failures by code: last day against the daily average of the 7 days before", "image")),
    ).not.toBeNull();
    // 40 + 30 recorded in the last day, and the two real logins.
    expect(await owner.page.$eval(".totals", (e) => (e as HTMLElement).innerText)).toContain(
      "Last day: 72 logins, 70.8 % succeeded",
    );
    const changes = await owner.page.$eval("#changes", (e) => (e as HTMLElement).innerText);
    expect(changes).toContain(
      `${CHANGED}: 50.0 % in the last day against 90.0 % in the 7 days before (40 and 100 logins)`,
    );
    expect(changes).toMatch(/form_not_found: 20 in the last day against 0\.0 a day/);
    expect(changes).not.toContain(STEADY);

    const site = await owner.page.$eval(`tr[data-site="${CHANGED}"]`, (e) => (e as HTMLElement).innerText);
    expect(site).toContain("Success rate dropped");
    expect(site).toMatch(/50\.0 %[\s\S]*90\.0 %/);
    // Its 20 successes took 2.1 s each: the median read from the [2, 3) s bucket is its middle.
    expect(site).toContain("2.5 s /");
    expect(await owner.page.$eval(`tr[data-site="${STEADY}"]`, (e) => (e as HTMLElement).innerText)).not.toContain(
      "dropped",
    );
    const codes = await numbers(owner, "Failures by code: last day against the daily average of the 7 days before");
    expect(codes.find((row) => row[0] === "form_not_found")).toEqual(["form_not_found", "20", "0", "0.0", "Rose"]);

    const hours = await numbers(owner, "Logins per hour by outcome, last day");
    expect(hours).toHaveLength(24);
    expect(hours.reduce((n, row) => n + count(row[row.length - 1]!), 0)).toBe(72);

    await owner.press("last week", "link");
    expect(await owner.page.$(byName("Logins per hour by outcome, last week", "image"))).not.toBeNull();
    const week = await numbers(owner, "Logins per hour by outcome, last week");
    expect(week).toHaveLength(168);
    expect(week.reduce((n, row) => n + count(row[row.length - 1]!), 0)).toBe(72 + 100 + 60);
    expect(cspErrors).toEqual([]);
  });

  it("shows one organization's numbers only", async () => {
    const other = await owner.createOrganization(`Quiet org ${tag}`);
    await owner.goto(`/o/${other}/jobs`);
    expect(await owner.page.$eval(".totals", (e) => (e as HTMLElement).innerText)).toContain("Last day: 0 logins");
    expect(await owner.page.$(`tr[data-site="${CHANGED}"]`)).toBeNull();
  });

  it("pages through a search newest first, each job once, the next link keeping the search", async () => {
    await owner.goto(`/o/${orgId}/jobs`);
    // ("Site" also names the sites table's column.)
    await (await owner.page.waitForSelector(byName("Site", "textbox")))!.type(CHANGED);
    await owner.press("Search");
    const seen: string[] = [];
    let times: number[] = [];
    for (let page = 1; ; page++) {
      const rows = await owner.page.$$eval("tr[data-job-id]", (trs) =>
        trs.map((tr) => ({
          id: tr.getAttribute("data-job-id")!,
          cells: [...tr.querySelectorAll("td")].map((td) => (td as HTMLElement).innerText),
        })),
      );
      expect(rows.every((r) => r.cells[3] === CHANGED)).toBe(true);
      seen.push(...rows.map((r) => r.id));
      times = [...times, ...rows.map((r) => Date.parse(r.cells[0]!.replace(" UTC", "Z").replace(" ", "T")))];
      // The organization's charts are drawn on the first page only; later pages link back to it.
      expect([page, (await owner.page.$(byName("Logins per hour by outcome, last day", "image"))) !== null]).toEqual([
        page,
        page === 1,
      ]);
      if (page > 1) {
        const first = new URL(
          await (await owner.page.waitForSelector(byName("the first page", "link")))!.evaluate(
            (a) => (a as HTMLAnchorElement).href,
          ),
        );
        expect([first.searchParams.get("after"), first.searchParams.get("site")]).toEqual([null, CHANGED]);
      }
      const next = await owner.page.$(byName("Next page", "link"));
      if (!next) break;
      expect(rows).toHaveLength(50);
      expect(new URL(await next.evaluate((a) => (a as HTMLAnchorElement).href)).searchParams.get("site")).toBe(CHANGED);
      await owner.press("Next page", "link");
      expect(page).toBeLessThan(5);
    }
    expect(seen).toHaveLength(140);
    expect(new Set(seen).size).toBe(140);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await owner.text()).toContain("No more jobs match.");

    await owner.goto(`/o/${orgId}/jobs?status=failed&code=form_not_found&site=${CHANGED}`);
    const failed = await owner.page.$$eval("tr[data-job-id]", (trs) => trs.map((tr) => (tr as HTMLElement).innerText));
    expect(failed).toHaveLength(20);
    expect(failed.every((t) => /failed\s+form_not_found/.test(t))).toBe(true);
  });

  it("answers a malformed search with a 400 page that says what is wrong", async () => {
    const { cookie } = await owner.credentials();
    const cases: Array<[string, RegExp]> = [
      ["status=bogus", /Status must be one of/],
      ["status=failed&status=queued", /given more than once/],
      ["code=DROP%20TABLE", /An error code is lower-case letters/],
      ["after=garbage", /page link is not valid/],
      ["range=month", /range must be &quot;day&quot; or &quot;week&quot;/],
      [`site=${"x".repeat(201)}`, /too long/],
    ];
    for (const [query, message] of cases) {
      const res = await fetch(`${dashboardUrl()}/o/${orgId}/jobs?${query}`, { headers: { cookie } });
      expect([query, res.status]).toEqual([query, 400]);
      expect(await res.text()).toMatch(message);
    }
  });
});

describe("the Admin area", () => {
  it("charts every organization's jobs, and searches failed jobs by organization and code", async () => {
    await staff.goto("/orgs");
    await staff.press("Admin", "link");
    expect(await staff.page.$(byName("Logins per hour by outcome, last day", "image"))).not.toBeNull();
    expect(await staff.page.$eval("#changes", (e) => (e as HTMLElement).innerText)).toContain(
      `${CHANGED}: 50.0 % in the last day against 90.0 % in the 7 days before (40 and 100 logins)`,
    );
    expect(await staff.page.$eval(`tr[data-site="${CHANGED}"]`, (e) => (e as HTMLElement).innerText)).toContain(
      "Success rate dropped",
    );

    await staff.press("Failed jobs", "link");
    await (await staff.page.waitForSelector(byName("Organization", "textbox")))!.type(ORG_NAME);
    await staff.page.select("#f-code", "form_not_found");
    await staff.press("Filter");
    const rows = await staff.page.$$eval("tr[data-job-id]", (trs) => trs.map((tr) => (tr as HTMLElement).innerText));
    expect(rows).toHaveLength(20);
    expect(rows.every((t) => t.includes(ORG_NAME) && t.includes("form_not_found"))).toBe(true);
    expect(new URL(staff.page.url()).searchParams.get("org")).toBe(ORG_NAME);

    const { cookie } = await staff.credentials();
    const bad = await fetch(`${dashboardUrl()}/admin/failed-jobs?since=yesterday`, { headers: { cookie } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("must be a date and time like");
    expect(cspErrors).toEqual([]);
  });
});
