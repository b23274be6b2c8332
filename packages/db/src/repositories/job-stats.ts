import { emptySql, joinSql, rawSql, sql, type Prisma, type Sql } from "../prisma-client";
import { DURATION_BUCKETS_MS } from "./duration-buckets";

const HOUR_MS = 3_600_000;
/** The charts read the last day and the 7 days before it; the hourly counts reach at least that far back. */
export const STATS_HORIZON_HOURS = 8 * 24;
// A job's end is stamped by its worker's clock and committed a moment later, and clocks differ a little:
// each run recomputes every hour that reaches back this far before the previous run's time.
const SETTLE_MS = 15 * 60_000;
// A rollup that is behind (its first run, or after an outage) catches up this many hours per run, so one
// run's transaction stays short: an hour of 42,000 jobs (a million a day) took 0.6 s on a loaded 2-core machine.
const MAX_HOURS_PER_RUN = 6;
// Bound of one run's transaction (Prisma's default is 5 s).
export const STATS_TX_TIMEOUT_MS = 120_000;
// pg_advisory_xact_lock key: two runs (a stalled one taken over) never recompute an hour at once.
const HOURS_LOCK = 7_301_530;

// The login page's host (and port), as URL.host has it: login URLs are stored as `new URL(domain).toString()`.
const SITE = sql`coalesce(lower(substring(login_url from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)')), '')`;
const OUTCOME = sql`CASE WHEN status = 'succeeded' THEN 'succeeded' ELSE coalesce(error_code, 'unknown') END`;
const BUCKETS = [...DURATION_BUCKETS_MS, null];
// One count per duration bucket, in DURATION_BUCKETS_MS order (source text, no values).
const BUCKET_COUNTS = rawSql(
  `ARRAY[${BUCKETS.map((upper, i) => {
    const lower = i === 0 ? null : DURATION_BUCKETS_MS[i - 1]!;
    const conditions = [
      lower !== null ? `duration_ms >= ${lower}` : null,
      upper !== null ? `duration_ms < ${upper}` : null,
    ].filter(Boolean);
    return `count(*) FILTER (WHERE ${conditions.join(" AND ")})`;
  }).join(", ")}]::int[]`,
);

/** Each bucket summed over the rows `condition` selects (rows whose array is empty add nothing). */
export const sumBuckets = (condition: Sql = sql`true`) =>
  sql`ARRAY[${joinSql(BUCKETS.map((_, i) => sql`coalesce(sum(duration_buckets[${rawSql(String(i + 1))}]) FILTER (WHERE ${condition}), 0)`))}]::int[]`;

export const floorHour = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;

/** Who is looking: one organization, or (platform staff) all of them. */
export interface StatsScope {
  orgId?: string;
}

/**
 * The windows the charts compare, in whole hours: the last day (this hour and the 23 before it), the last
 * week (this hour and the 167 before it), and the 7 days before the last day (the baseline).
 */
export interface StatsWindows {
  now: Date;
  dayStart: Date;
  weekStart: Date;
  baselineStart: Date;
}

export function statsWindows(now: Date): StatsWindows {
  const hour = floorHour(now.getTime());
  const dayStart = hour - 23 * HOUR_MS;
  return {
    now,
    dayStart: new Date(dayStart),
    weekStart: new Date(hour - (7 * 24 - 1) * HOUR_MS),
    baselineStart: new Date(dayStart - 7 * 24 * HOUR_MS),
  };
}

export const inScope = (scope: StatsScope) => (scope.orgId ? sql`AND org_id = ${scope.orgId}` : emptySql);

/**
 * Hourly counts of finished jobs (job_stats_site_hours, and job_stats_hours without the site), kept up to
 * date by the worker's maintenance queue (`rollUp`), and what the charts read from them. A chart never
 * reads auth_jobs: job_stats_hours has a row per organization, hour and outcome.
 */
export class JobStats {
  constructor(private readonly prisma: Prisma) {}

  /**
   * Brings the hourly counts up to `now`: recomputes every hour from shortly before the previous run
   * (SETTLE_MS) to the current one, or the last STATS_HORIZON_HOURS on the first run, at most
   * MAX_HOURS_PER_RUN a run. Running it again, or at once from two workers, never counts a job twice.
   */
  async rollUp(now = new Date()): Promise<{ from: Date; to: Date; caughtUp: boolean }> {
    const progress = await this.prisma.jobStatsProgress.findUnique({ where: { id: 1 } });
    const horizon = floorHour(now.getTime()) - STATS_HORIZON_HOURS * HOUR_MS;
    const end = floorHour(now.getTime()) + HOUR_MS;
    // (At least this hour: a progress ahead of `now` came from a clock that ran ahead.)
    const from = Math.min(
      end - HOUR_MS,
      Math.max(horizon, floorHour((progress?.rolledUpTo.getTime() ?? horizon) - SETTLE_MS)),
    );
    const to = Math.min(end, from + MAX_HOURS_PER_RUN * HOUR_MS);
    const caughtUp = to === end;
    await this.recompute(new Date(from), new Date(to), caughtUp ? now : new Date(to));
    return { from: new Date(from), to: new Date(to), caughtUp };
  }

  /**
   * Counts again, from auth_jobs, the jobs that finished in the whole hours [from, to), replacing what was
   * stored for them (one transaction); `rolledUpTo` moves the progress forward (never back).
   */
  async recompute(from: Date, to: Date, rolledUpTo?: Date): Promise<void> {
    await this.prisma.$transaction(
      [
        this.prisma.$executeRaw`SELECT pg_advisory_xact_lock(${HOURS_LOCK})`,
        this.prisma.$executeRaw`DELETE FROM job_stats_site_hours WHERE hour >= ${from} AND hour < ${to}`,
        this.prisma.$executeRaw`DELETE FROM job_stats_hours WHERE hour >= ${from} AND hour < ${to}`,
        this.prisma.$executeRaw`
          INSERT INTO job_stats_site_hours (org_id, hour, site, outcome, jobs, duration_buckets)
          SELECT org_id, date_trunc('hour', finished_at), ${SITE}, ${OUTCOME}, count(*),
            CASE WHEN ${OUTCOME} = 'succeeded' THEN ${BUCKET_COUNTS} ELSE '{}'::int[] END
          FROM auth_jobs
          WHERE finished_at >= ${from} AND finished_at < ${to} AND status IN ('succeeded', 'failed')
          GROUP BY 1, 2, 3, 4`,
        this.prisma.$executeRaw`
          INSERT INTO job_stats_hours (org_id, hour, outcome, jobs, duration_buckets)
          SELECT org_id, hour, outcome, sum(jobs), CASE WHEN outcome = 'succeeded' THEN ${sumBuckets()} ELSE '{}'::int[] END
          FROM job_stats_site_hours WHERE hour >= ${from} AND hour < ${to}
          GROUP BY 1, 2, 3`,
        ...(rolledUpTo
          ? [
              this.prisma.$executeRaw`
                INSERT INTO job_stats_progress (id, rolled_up_to) VALUES (1, ${rolledUpTo})
                ON CONFLICT (id) DO UPDATE SET rolled_up_to = GREATEST(job_stats_progress.rolled_up_to, EXCLUDED.rolled_up_to)`,
            ]
          : []),
      ],
      { timeout: STATS_TX_TIMEOUT_MS },
    );
  }

  /**
   * Retention: hourly counts before `cutoff` go; those per site (the bulk: a long tail of sites makes a row
   * per job) once no chart reads them, after STATS_HORIZON_HOURS.
   */
  async deleteBefore(cutoff: Date, now = Date.now()): Promise<number> {
    const siteCutoff = new Date(Math.max(cutoff.getTime(), floorHour(now) - STATS_HORIZON_HOURS * HOUR_MS));
    const [sites, hours] = await this.prisma.$transaction([
      this.prisma.jobStatSiteHour.deleteMany({ where: { hour: { lt: siteCutoff } } }),
      this.prisma.jobStatHour.deleteMany({ where: { hour: { lt: cutoff } } }),
    ]);
    return sites.count + hours.count;
  }

  /** Jobs per hour and outcome since `since` (hours without jobs are absent). */
  hourly(scope: StatsScope, since: Date): Promise<Array<{ hour: Date; outcome: string; jobs: number }>> {
    return this.prisma.$queryRaw`
      SELECT hour, outcome, sum(jobs)::int AS jobs FROM job_stats_hours
      WHERE hour >= ${since} ${inScope(scope)}
      GROUP BY hour, outcome ORDER BY hour, outcome`;
  }

  /** Jobs per outcome in the last day, the last week, and the 7 days before the last day. */
  outcomes(
    scope: StatsScope,
    w: StatsWindows,
  ): Promise<Array<{ outcome: string; day: number; week: number; baseline: number }>> {
    return this.prisma.$queryRaw`
      SELECT outcome,
        coalesce(sum(jobs) FILTER (WHERE hour >= ${w.dayStart}), 0)::int AS day,
        coalesce(sum(jobs) FILTER (WHERE hour >= ${w.weekStart}), 0)::int AS week,
        coalesce(sum(jobs) FILTER (WHERE hour < ${w.dayStart}), 0)::int AS baseline
      FROM job_stats_hours
      WHERE hour >= ${w.baselineStart} ${inScope(scope)}
      GROUP BY outcome ORDER BY outcome`;
  }

  /** Durations of the jobs that succeeded in the last day and the last week, in DURATION_BUCKETS_MS buckets. */
  async successDurations(scope: StatsScope, w: StatsWindows): Promise<{ day: number[]; week: number[] }> {
    const [row] = await this.prisma.$queryRaw<Array<{ day: number[]; week: number[] }>>`
      SELECT ${sumBuckets(sql`hour >= ${w.dayStart}`)} AS day, ${sumBuckets()} AS week
      FROM job_stats_hours
      WHERE outcome = 'succeeded' AND hour >= ${w.weekStart} ${inScope(scope)}`;
    return row!;
  }
}
