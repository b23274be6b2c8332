import { rawSql, sql, type Prisma } from "../prisma-client";
import { STATS_TX_TIMEOUT_MS, sumBuckets, type StatsScope, type StatsWindows } from "./job-stats";
import { SITE_DROP, type SuccessCount } from "./job-stats-trends";

/** Sites kept per scope: the busiest of the week, and as many more whose success rate fell. */
const SITES_PER_SCOPE = 20;
// pg_advisory_xact_lock key of the refresh (see JobStats).
const SITES_LOCK = 7_301_531;

export interface SiteStats {
  site: string;
  /** The last day: jobs, successes, and the successes' durations in DURATION_BUCKETS_MS buckets (empty: none). */
  day: SuccessCount & { buckets: number[] };
  week: SuccessCount & { buckets: number[] };
  /** The 7 days before the last day. */
  baseline: SuccessCount;
}

/**
 * Per scope (each organization, and "" for all of them) the SITES_PER_SCOPE busiest sites of the last week
 * and up to as many whose success rate fell (SITE_DROP's counts and points; the page applies the z-test),
 * recomputed from job_stats_site_hours as a whole by the maintenance queue. A long tail of sites makes
 * that computation longer, never a page: a page reads its scope's few rows.
 */
export class JobStatSites {
  constructor(private readonly prisma: Prisma) {}

  async refresh(w: StatsWindows): Promise<number> {
    const dayRate = rawSql("day_ok::float8 / nullif(day_jobs, 0)");
    const baseRate = rawSql("base_ok::float8 / nullif(base_jobs, 0)");
    const [, , inserted] = await this.prisma.$transaction(
      [
        this.prisma.$executeRaw`SELECT pg_advisory_xact_lock(${SITES_LOCK})`,
        this.prisma.$executeRaw`DELETE FROM job_stats_sites`,
        this.prisma.$executeRaw`
          INSERT INTO job_stats_sites (scope, site, day_jobs, day_succeeded, day_buckets, week_jobs, week_succeeded, week_buckets, baseline_jobs, baseline_succeeded, computed_at)
          WITH per_org AS (
            SELECT org_id AS scope, site,
              coalesce(sum(jobs) FILTER (WHERE hour >= ${w.dayStart}), 0)::int AS day_jobs,
              coalesce(sum(jobs) FILTER (WHERE hour >= ${w.dayStart} AND outcome = 'succeeded'), 0)::int AS day_ok,
              coalesce(sum(jobs) FILTER (WHERE hour >= ${w.weekStart}), 0)::int AS week_jobs,
              coalesce(sum(jobs) FILTER (WHERE hour >= ${w.weekStart} AND outcome = 'succeeded'), 0)::int AS week_ok,
              coalesce(sum(jobs) FILTER (WHERE hour < ${w.dayStart}), 0)::int AS base_jobs,
              coalesce(sum(jobs) FILTER (WHERE hour < ${w.dayStart} AND outcome = 'succeeded'), 0)::int AS base_ok
            FROM job_stats_site_hours WHERE hour >= ${w.baselineStart}
            GROUP BY org_id, site
          ), scoped AS (
            SELECT * FROM per_org
            UNION ALL
            SELECT '', site, sum(day_jobs)::int, sum(day_ok)::int, sum(week_jobs)::int, sum(week_ok)::int, sum(base_jobs)::int, sum(base_ok)::int
            FROM per_org GROUP BY site
          ), ranked AS (
            SELECT *,
              row_number() OVER (PARTITION BY scope ORDER BY week_jobs DESC, site) AS busiest,
              coalesce(day_jobs >= ${SITE_DROP.minJobs} AND base_jobs >= ${SITE_DROP.minJobs} AND ${dayRate} <= ${baseRate} - ${SITE_DROP.minDrop}, false) AS dropped
            FROM scoped
          ), chosen AS (
            SELECT *, row_number() OVER (PARTITION BY scope, dropped ORDER BY ${baseRate} - ${dayRate} DESC NULLS LAST, site) AS drop_rank FROM ranked
          )
          SELECT scope, site, day_jobs, day_ok, '{}', week_jobs, week_ok, '{}', base_jobs, base_ok, ${w.now}
          FROM chosen
          WHERE (busiest <= ${SITES_PER_SCOPE} AND week_jobs > 0) OR (dropped AND drop_rank <= ${SITES_PER_SCOPE})`,
        // The durations only for the sites kept: one pass over the week's succeeded rows per kind of scope.
        this.prisma.$executeRaw`
          UPDATE job_stats_sites s SET day_buckets = b.day, week_buckets = b.week
          FROM (
            SELECT h.org_id, h.site, ${sumBuckets(sql`h.hour >= ${w.dayStart}`)} AS day, ${sumBuckets()} AS week
            FROM job_stats_site_hours h JOIN job_stats_sites k ON k.scope = h.org_id AND k.site = h.site
            WHERE h.hour >= ${w.weekStart} AND h.outcome = 'succeeded'
            GROUP BY h.org_id, h.site
          ) b
          WHERE s.scope = b.org_id AND s.site = b.site`,
        this.prisma.$executeRaw`
          UPDATE job_stats_sites s SET day_buckets = b.day, week_buckets = b.week
          FROM (
            SELECT site, ${sumBuckets(sql`hour >= ${w.dayStart}`)} AS day, ${sumBuckets()} AS week
            FROM job_stats_site_hours
            WHERE hour >= ${w.weekStart} AND outcome = 'succeeded' AND site IN (SELECT site FROM job_stats_sites WHERE scope = '')
            GROUP BY site
          ) b
          WHERE s.scope = '' AND s.site = b.site`,
      ],
      { timeout: STATS_TX_TIMEOUT_MS },
    );
    return inserted as number;
  }

  /** The scope's sites, busiest first, and when they were computed (null: not yet). */
  async read(scope: StatsScope): Promise<{ sites: SiteStats[]; computedAt: Date | null }> {
    const rows = await this.prisma.jobStatSite.findMany({
      where: { scope: scope.orgId ?? "" },
      orderBy: [{ weekJobs: "desc" }, { site: "asc" }],
    });
    return {
      computedAt: rows[0]?.computedAt ?? null,
      sites: rows.map((r) => ({
        site: r.site,
        day: { jobs: r.dayJobs, succeeded: r.daySucceeded, buckets: r.dayBuckets },
        week: { jobs: r.weekJobs, succeeded: r.weekSucceeded, buckets: r.weekBuckets },
        baseline: { jobs: r.baselineJobs, succeeded: r.baselineSucceeded },
      })),
    };
  }
}
