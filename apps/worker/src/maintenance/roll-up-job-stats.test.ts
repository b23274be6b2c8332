import { loadConfig } from "@authsvc/config";
import { Database, durationPercentile, statsWindows } from "@authsvc/db";
import { freshTestDatabase, recordPastJobs } from "@authsvc/devstack";
import { refreshSiteStats, rollUpJobStats } from "./roll-up-job-stats";

// The dashboard's charts read hourly counts that the maintenance queue computes from finished jobs: each
// job counted once however often (or however concurrently) the hours are recomputed, late writes included.
let db: Database;
const HOUR = 3_600_000;

beforeAll(async () => {
  db = Database.fromConfig(loadConfig(await freshTestDatabase("unit_job_stats")), 4);
});
afterAll(async () => {
  await db.close();
});

const ago = (ms: number) => new Date(Date.now() - ms);
const total = (rows: Array<{ jobs: number }>) => rows.reduce((n, r) => n + r.jobs, 0);

describe("rollUpJobStats", () => {
  it("catches up on the last 8 days on its first run, counts each job once by hour, site and outcome, and never twice", async () => {
    await db.prisma.jobStatsProgress.deleteMany();
    const org = await db.organizations.create("Stats org");
    // One time for the hour's jobs, so that an hour that turns while the test runs does not split them.
    const twoHoursAgo = ago(2 * HOUR);
    await recordPastJobs(db, org.id, [
      {
        loginUrl: "https://Shop.Example/login?next=/",
        outcome: "succeeded",
        finishedAt: twoHoursAgo,
        durationMs: 1200,
      },
      { loginUrl: "https://shop.example/login", outcome: "succeeded", finishedAt: twoHoursAgo, durationMs: 4100 },
      {
        loginUrl: "https://shop.example/login",
        outcome: "invalid_credentials",
        finishedAt: twoHoursAgo,
        durationMs: 900,
      },
      { loginUrl: "https://shop.example:8443/login", outcome: "succeeded", finishedAt: twoHoursAgo, kind: "refresh" },
      { loginUrl: "https://old.example/login", outcome: "succeeded", finishedAt: ago(6 * 24 * HOUR) },
      // Beyond the charts' 8 days: never read, not counted.
      { loginUrl: "https://older.example/login", outcome: "succeeded", finishedAt: ago(9 * 24 * HOUR) },
    ]);
    // Open jobs are not counted.
    const cred = await db.credentials.ensure({
      orgId: org.id,
      loginUrl: "https://shop.example/login",
      username: "open",
    });
    await db.jobLifecycle.create({
      orgId: org.id,
      credentialId: cred.id,
      kind: "login",
      method: "password",
      loginUrl: "https://shop.example/login",
      fingerprint: "fp-open",
      useCache: true,
      input: { kind: "login", method: "password" },
    });

    const first = await rollUpJobStats(db);
    expect(first.caughtUp).toBe(true);
    expect(first.hours).toBeGreaterThanOrEqual(8 * 24);
    const since = ago(8 * 24 * HOUR);
    const rows = await db.prisma.jobStatSiteHour.findMany({
      where: { orgId: org.id },
      orderBy: [{ site: "asc" }, { outcome: "asc" }],
    });
    expect(rows.map((r) => [r.site, r.outcome, r.jobs])).toEqual([
      ["old.example", "succeeded", 1],
      ["shop.example", "invalid_credentials", 1],
      ["shop.example", "succeeded", 2],
      ["shop.example:8443", "succeeded", 1],
    ]);
    const shop = rows.find((r) => r.site === "shop.example" && r.outcome === "succeeded")!;
    expect(shop.hour.getTime()).toBe(Math.floor(twoHoursAgo.getTime() / HOUR) * HOUR);
    // 1.2 s in [1, 1.5) s, 4.1 s in [4, 5) s; a failure's durations are not kept.
    const filled = (buckets: number[]) => buckets.map((n, i) => (n ? `${i}:${n}` : "")).filter(Boolean);
    expect(filled(shop.durationBuckets)).toEqual(["4:1", "8:1"]);
    expect(rows.find((r) => r.outcome === "invalid_credentials")!.durationBuckets).toEqual([]);
    // Without the site: a row per hour and outcome.
    const hours = await db.prisma.jobStatHour.findMany({ where: { orgId: org.id, hour: shop.hour } });
    expect(hours.map((h) => [h.outcome, h.jobs, filled(h.durationBuckets)]).sort()).toEqual([
      ["invalid_credentials", 1, []],
      ["succeeded", 3, ["4:1", "6:1", "8:1"]],
    ]);

    // Again, and three at once: the same numbers.
    await rollUpJobStats(db);
    await Promise.all([rollUpJobStats(db), rollUpJobStats(db), db.jobStats.recompute(since, new Date())]);
    expect(total(await db.jobStats.hourly({ orgId: org.id }, since))).toBe(5);
  });

  it("counts a job whose end was written shortly before the last run but committed after it", async () => {
    const org = await db.organizations.create("Late org");
    await rollUpJobStats(db);
    const since = ago(8 * 24 * HOUR);
    // Stamped by a worker's clock ten minutes ago (or one running behind), committed now.
    await recordPastJobs(db, org.id, [
      { loginUrl: "https://late.example/login", outcome: "timeout", finishedAt: ago(10 * 60_000) },
    ]);
    await rollUpJobStats(db);
    expect(await db.jobStats.hourly({ orgId: org.id }, since)).toEqual([
      { hour: expect.any(Date), outcome: "timeout", jobs: 1 },
    ]);
  });

  it("reads one organization's numbers, or everyone's, and a site's percentiles and its drop against the week before", async () => {
    const org = await db.organizations.create("Trend org");
    const other = await db.organizations.create("Other trend org");
    const site = "https://drop.example/login";
    const jobs = [];
    // The week before: 90 % of 100 succeed. The last day: 50 % of 40.
    for (let i = 0; i < 100; i++)
      jobs.push({
        loginUrl: site,
        outcome: i < 90 ? "succeeded" : "timeout",
        finishedAt: ago((2 + (i % 5)) * 24 * HOUR),
        durationMs: 1000 + (i % 10) * 100,
      });
    for (let i = 0; i < 40; i++)
      jobs.push({
        loginUrl: site,
        outcome: i < 20 ? "succeeded" : "form_not_found",
        finishedAt: ago((1 + (i % 5)) * HOUR),
        durationMs: i < 10 ? 2100 : 6000,
      });
    for (let i = 0; i < 30; i++)
      jobs.push({
        loginUrl: "https://steady.example/login",
        outcome: "succeeded",
        finishedAt: ago((1 + (i % 20)) * HOUR),
      });
    await recordPastJobs(db, org.id, jobs);
    await recordPastJobs(db, other.id, [{ loginUrl: site, outcome: "succeeded", finishedAt: ago(HOUR) }]);
    await db.jobStats.recompute(ago(8 * 24 * HOUR), new Date(Date.now() + HOUR));

    const w = statsWindows(new Date());
    const outcomes = await db.jobStats.outcomes({ orgId: org.id }, w);
    expect(durationPercentile((await db.jobStats.successDurations({ orgId: org.id }, w)).day, 0.5)).toBeGreaterThan(
      1000,
    );
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { outcome: "form_not_found", day: 20, week: 20, baseline: 0 },
        { outcome: "timeout", day: 0, week: 10, baseline: 10 },
      ]),
    );
    const everyone = await db.jobStats.outcomes({}, w);
    expect(everyone.find((o) => o.outcome === "succeeded")!.day).toBeGreaterThanOrEqual(20 + 30 + 1);

    await refreshSiteStats(db);
    const { sites } = await db.jobStatSites.read({ orgId: org.id });
    expect(sites.map((x) => x.site)).toEqual(["drop.example", "steady.example"]);
    const drop = sites[0]!;
    expect([drop.day.jobs, drop.day.succeeded, drop.baseline.jobs, drop.baseline.succeeded, drop.week.jobs]).toEqual([
      40, 20, 100, 90, 140,
    ]);
    // Half the last day's successes took 2.1 s, half 6 s: the median lies between, the 95th among the slow ones.
    expect(durationPercentile(drop.day.buckets, 0.5)).toBe(3000);
    expect(durationPercentile(drop.day.buckets, 0.95)).toBeGreaterThanOrEqual(5000);
    expect(durationPercentile(drop.day.buckets, 0.95)).toBeLessThanOrEqual(6500);
    expect(durationPercentile(drop.week.buckets, 0.5)).toBeLessThan(2000);
    // The other organization's job is not in this one's numbers; everyone's has both.
    expect((await db.jobStatSites.read({ orgId: other.id })).sites.map((x) => [x.site, x.day.jobs])).toEqual([
      ["drop.example", 1],
    ]);
    const all = (await db.jobStatSites.read({})).sites.find((x) => x.site === "drop.example")!;
    expect([all.day.jobs, all.week.jobs]).toEqual([41, 141]);
  });

  it("keeps per organization the busiest sites of the week, and beyond them the sites whose success rate fell", async () => {
    const org = await db.organizations.create("Many sites org");
    const jobs = [];
    // 25 busy sites that are fine, then a small one whose logins started failing.
    for (let s = 0; s < 25; s++)
      for (let i = 0; i < 50 + s; i++)
        jobs.push({
          loginUrl: `https://busy${s}.example/login`,
          outcome: "succeeded",
          finishedAt: ago((1 + (i % 100)) * HOUR),
        });
    for (let i = 0; i < 25; i++)
      jobs.push({ loginUrl: "https://changed.example/login", outcome: "succeeded", finishedAt: ago((30 + i) * HOUR) });
    for (let i = 0; i < 20; i++)
      jobs.push({
        loginUrl: "https://changed.example/login",
        outcome: i < 5 ? "succeeded" : "form_not_found",
        finishedAt: ago((1 + i) * HOUR),
      });
    await recordPastJobs(db, org.id, jobs);
    await db.jobStats.recompute(ago(8 * 24 * HOUR), new Date(Date.now() + HOUR));
    const refreshedFrom = new Date();
    await refreshSiteStats(db);
    const { sites, computedAt } = await db.jobStatSites.read({ orgId: org.id });
    expect(sites).toHaveLength(21);
    expect(sites[0]!.site).toBe("busy24.example");
    expect(sites.map((x) => x.site)).toContain("changed.example");
    expect(sites.map((x) => x.site)).not.toContain("busy4.example");
    // Computed by this refresh, not an earlier one.
    expect(computedAt!.getTime()).toBeGreaterThanOrEqual(refreshedFrom.getTime());
  });

  it("is deleted with its organization", async () => {
    const org = await db.organizations.create("Gone org");
    await recordPastJobs(db, org.id, [
      { loginUrl: "https://gone.example/login", outcome: "succeeded", finishedAt: ago(HOUR) },
    ]);
    await rollUpJobStats(db);
    await db.jobStats.recompute(ago(2 * HOUR), new Date(Date.now() + HOUR));
    const counts = () =>
      Promise.all([
        db.prisma.jobStatHour.count({ where: { orgId: org.id } }),
        db.prisma.jobStatSiteHour.count({ where: { orgId: org.id } }),
      ]);
    expect(await counts()).toEqual([1, 1]);
    await db.prisma.organization.delete({ where: { id: org.id } });
    expect(await counts()).toEqual([0, 0]);
  });
});

describe("durationPercentile", () => {
  it("interpolates inside the bucket, reports the open last bucket by its lower bound, and null for nothing", () => {
    const buckets = new Array(23).fill(0);
    buckets[0] = 10; // [0, 250) ms
    expect(durationPercentile(buckets, 0.5)).toBe(125);
    buckets[22] = 90; // over 150 s
    expect(durationPercentile(buckets, 0.95)).toBe(150_000);
    expect(durationPercentile(new Array(23).fill(0), 0.5)).toBeNull();
  });
});
