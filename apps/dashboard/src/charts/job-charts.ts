import {
  codeRose,
  durationPercentile,
  statsWindows,
  successDropped,
  successRate,
  type Database,
  type SiteStats,
  type StatsScope,
} from "@authsvc/db";
import { duration } from "../html/format";
import { html, type SafeHtml } from "../html/html";
import { table } from "../html/table";
import { count, percent } from "./chart-scale";
import { columnChart, type ColumnSeries } from "./column-chart";
import { pairedBars } from "./paired-bars";
import { siteTable } from "./site-table";
import { CHART_RANGES, rangeLabel as label, type ChartRange } from "./chart-range";

const HOUR = 3_600_000;
// Failure codes with a colour of their own in the hourly chart; the rest are "other failures".
const COLOURED_CODES = 6;
const CODE_ROWS = 8;

type Outcome = { outcome: string; day: number; week: number; baseline: number };

/**
 * The charts of an organization's jobs, or (platform staff) of every organization's: logins per hour by
 * outcome, failure codes against the week before, sites with their success rates and times, and in words
 * what changed (a site whose success rate dropped, a code that rose). Read from the job stats, a few rows
 * per hour and outcome, never from the job records. `rangeLink` makes the "last day / last week" links.
 */
export async function jobCharts(
  db: Database,
  scope: StatsScope,
  range: ChartRange,
  rangeLink: (r: ChartRange) => string,
  now = new Date(),
): Promise<SafeHtml> {
  const w = statsWindows(now);
  const since = range === "day" ? w.dayStart : w.weekStart;
  const [hourly, outcomes, durations, { sites, computedAt }] = await Promise.all([
    db.jobStats.hourly(scope, since),
    db.jobStats.outcomes(scope, w),
    db.jobStats.successDurations(scope, w),
    db.jobStatSites.read(scope),
  ]);
  const total = (key: "day" | "week") => outcomes.reduce((n, o) => n + o[key], 0);
  const succeeded = (key: "day" | "week") => outcomes.find((o) => o.outcome === "succeeded")?.[key] ?? 0;
  const summary = (key: "day" | "week", label: string) => {
    const p = (q: number) => {
      const ms = durationPercentile(durations[key], q);
      return ms === null ? "—" : duration(ms);
    };
    return html`<li>${label}: <strong>${count(total(key))}</strong> logins, <strong>${percent(successRate({ jobs: total(key), succeeded: succeeded(key) }))}</strong> succeeded, p50 ${p(0.5)}, p95 ${p(0.95)}</li>`;
  };

  return html`<section class="charts" aria-labelledby="charts-heading">
<h2 id="charts-heading">Charts</h2>
<ul class="totals">${summary("day", "Last day")}${summary("week", "Last week")}</ul>
${changes(sites, outcomes)}
<p class="filters">Logins per hour: ${CHART_RANGES.map((r) => (r === range ? html`<strong>${label(r)}</strong> ` : html`<a href="${rangeLink(r)}">${label(r)}</a> `))}</p>
${hourlyChart(hourly, range, since, now, outcomes)}
${codeChart(outcomes)}
<h3>Sites</h3>
${siteTable(sites, computedAt)}
<p class="muted">Every finished job counts (logins, refreshes, signups, verifications), by the hour it ended (UTC). The last day is this hour and the 23 before it; the 7 days before it are what a change is measured against.</p>
</section>`;
}

/** What changed, in words: sites whose success rate dropped, failure codes that rose. */
function changes(sites: SiteStats[], outcomes: Outcome[]): SafeHtml {
  const dropped = sites.filter((s) => successDropped(s.day, s.baseline));
  const rose = outcomes.filter((o) => o.outcome !== "succeeded" && codeRose(o.day, o.baseline));
  if (!dropped.length && !rose.length)
    return html`<p class="muted" id="changes">No site's success rate dropped and no failure code rose (the last day against the 7 days before).</p>`;
  return html`<div class="error" id="changes">
${
  dropped.length
    ? html`<h3>Sites whose success rate dropped</h3>
<ul>${dropped.map((s) => html`<li><strong>${s.site}</strong>: ${percent(successRate(s.day))} in the last day against ${percent(successRate(s.baseline))} in the 7 days before (${count(s.day.jobs)} and ${count(s.baseline.jobs)} logins); its login page may have changed.</li>`)}</ul>`
    : ""
}
${
  rose.length
    ? html`<h3>Failure codes that rose</h3>
<ul>${rose.map((o) => html`<li><code>${o.outcome}</code>: ${count(o.day)} in the last day against ${(o.baseline / 7).toFixed(1)} a day in the 7 days before.</li>`)}</ul>`
    : ""
}
</div>`;
}

/** `outcomes` ranks the failure codes (over 8 days), so a code keeps its colour from one range to the other. */
function hourlyChart(
  rows: Array<{ hour: Date; outcome: string; jobs: number }>,
  range: ChartRange,
  since: Date,
  now: Date,
  outcomes: Outcome[],
): SafeHtml {
  const hours: number[] = [];
  for (let t = since.getTime(); t <= now.getTime(); t += HOUR) hours.push(t);
  const index = new Map(hours.map((t, i) => [t, i]));
  const byOutcome = new Map<string, number[]>();
  for (const row of rows) {
    const i = index.get(row.hour.getTime());
    if (i === undefined) continue;
    const values = byOutcome.get(row.outcome) ?? new Array<number>(hours.length).fill(0);
    values[i]! += row.jobs;
    byOutcome.set(row.outcome, values);
  }
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const rank = new Map(outcomes.map((o) => [o.outcome, o.day + o.baseline]));
  const failures = [...byOutcome]
    .filter(([o]) => o !== "succeeded")
    .sort((a, b) => (rank.get(b[0]) ?? 0) - (rank.get(a[0]) ?? 0) || a[0].localeCompare(b[0]));
  const other = new Array<number>(hours.length).fill(0);
  for (const [, values] of failures.slice(COLOURED_CODES)) values.forEach((v, i) => (other[i]! += v));
  const series: ColumnSeries[] = [
    {
      name: "succeeded",
      className: "o-ok",
      values: byOutcome.get("succeeded") ?? new Array<number>(hours.length).fill(0),
    },
    ...failures.slice(0, COLOURED_CODES).map(([o, values], k) => ({ name: o, className: `o-f${k + 1}`, values })),
    { name: "other failures", className: "o-other", values: other },
  ];
  const all = sum(series.flatMap((s) => s.values));
  const ok = sum(series[0]!.values);
  const iso = (t: number) => new Date(t).toISOString();
  const title = `Logins per hour by outcome, ${label(range)}`;
  return columnChart(
    {
      title,
      summary: `${count(all)} logins, ${count(ok)} succeeded, ${count(all - ok)} failed, from ${iso(hours[0]!).slice(0, 13)}:00 UTC.`,
      columns: hours.map((t) => `${iso(t).slice(0, 10)} ${iso(t).slice(11, 16)} UTC`),
      tick: (i) => {
        const d = new Date(hours[i]!);
        if (range === "day") return d.getUTCHours() % 3 === 0 ? iso(hours[i]!).slice(11, 16) : null;
        return d.getUTCHours() === 0 ? iso(hours[i]!).slice(5, 10) : null;
      },
      series,
      columnHeading: "Hour",
    },
    "logins-per-hour",
  );
}

function codeChart(outcomes: Outcome[]): SafeHtml {
  const failures = outcomes.filter((o) => o.outcome !== "succeeded" && (o.day > 0 || o.baseline > 0));
  const rows = failures
    .sort(
      (a, b) =>
        Number(codeRose(b.day, b.baseline)) - Number(codeRose(a.day, a.baseline)) ||
        b.day - a.day ||
        b.baseline - a.baseline ||
        a.outcome.localeCompare(b.outcome),
    )
    .slice(0, CODE_ROWS);
  if (!rows.length) return html`<h3>Failure codes</h3><p class="muted">No failures in the last 8 days.</p>`;
  const title = "Failures by code: last day against the daily average of the 7 days before";
  return html`<h3>Failure codes</h3>
${pairedBars(
  {
    title,
    summary: rows
      .map(
        (o) =>
          `${o.outcome}: ${o.day} in the last day, ${(o.baseline / 7).toFixed(1)} a day before${codeRose(o.day, o.baseline) ? " (rose)" : ""}`,
      )
      .join("; "),
    names: ["last day", "daily average, 7 days before"],
    classNames: ["o-f1", "o-before"],
    rows: rows.map((o) => ({
      label: o.outcome,
      values: [o.day, o.baseline / 7],
      flag: codeRose(o.day, o.baseline) ? "rose" : undefined,
    })),
    format: (v) => (Number.isInteger(v) ? count(v) : v.toFixed(1)),
  },
  "failure-codes",
  html`<details><summary>Numbers: ${title}</summary>
${table(
  ["Code", "Last day", "7 days before", "A day, 7 days before", ""],
  rows.map((o) => [
    html`<code>${o.outcome}</code>`,
    count(o.day),
    count(o.baseline),
    (o.baseline / 7).toFixed(1),
    codeRose(o.day, o.baseline) ? html`<strong class="flag">Rose</strong>` : "",
  ]),
  "",
  (i) => html` data-code="${rows[i]!.outcome}"`,
)}
</details>`,
)}`;
}
