import { durationPercentile, successDropped, successRate, type SiteStats } from "@authsvc/db";
import { duration, when } from "../html/format";
import { html, type SafeHtml } from "../html/html";
import { table } from "../html/table";
import { count, percent } from "./chart-scale";

const BAR = 60;

/** A success rate as a small bar and its number (the bar is decoration: the number is the value). */
function rateBar(rate: number | null): SafeHtml {
  const filled = rate === null ? 0 : Math.round(rate * BAR * 10) / 10;
  return html`<span class="rate"><svg width="${BAR}" height="10" aria-hidden="true"><rect class="rate-track" width="${BAR}" height="10"/><rect class="rate-fill" width="${filled}" height="10"/></svg> ${percent(rate)}</span>`;
}

/** "p50 / p95" of the successes' durations, read from their buckets; "over" for the open last bucket. */
function percentiles(buckets: number[]): string {
  const p = (q: number) => {
    const ms = durationPercentile(buckets, q);
    return ms === null ? "—" : ms >= 150_000 ? "over 150 s" : duration(ms);
  };
  return `${p(0.5)} / ${p(0.95)}`;
}

/**
 * The busiest sites of the last week and those whose success rate dropped: logins, success rates and
 * p50/p95 times over the last day and week, against the 7 days before the last day. A drop is said in
 * words in its row, not only by colour.
 */
export function siteTable(sites: SiteStats[], computedAt: Date | null): SafeHtml {
  return html`<div class="sites">${table(
    [
      "Site",
      "Logins, day",
      "Logins, week",
      "Success, day",
      "Success, week",
      "Success, 7 days before",
      "p50 / p95, day",
      "p50 / p95, week",
    ],
    sites.map((s) => [
      html`${s.site || "(no host)"}${successDropped(s.day, s.baseline) ? html`<br><strong class="flag">Success rate dropped</strong>` : ""}`,
      count(s.day.jobs),
      count(s.week.jobs),
      rateBar(successRate(s.day)),
      rateBar(successRate(s.week)),
      percent(successRate(s.baseline)),
      percentiles(s.day.buckets),
      percentiles(s.week.buckets),
    ]),
    "No logins in the last week.",
    (i) =>
      html` data-site="${sites[i]!.site}"${successDropped(sites[i]!.day, sites[i]!.baseline) ? html` class="dropped"` : ""}`,
  )}</div>
<p class="muted">The busiest sites of the last week, and any whose success rate dropped; "day" is the last day, "week" the last week. p50 / p95: how long a successful login took (approximate, from duration buckets). Computed ${when(computedAt)}, every few minutes.</p>`;
}
