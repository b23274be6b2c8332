import { html, type SafeHtml } from "../html/html";
import { table } from "../html/table";
import { count, niceScale } from "./chart-scale";

export interface ColumnSeries {
  name: string;
  /** A class of the stylesheet that colours it (`.chart .o-…`): no inline style under our CSP. */
  className: string;
  values: number[];
}

export interface ColumnChart {
  /** The chart's accessible name, also its caption. */
  title: string;
  /** What it shows in a sentence, with its totals: read by screen readers with the chart. */
  summary: string;
  /** One label per column (its hour), as the numbers table shows it. */
  columns: string[];
  /** The label under a column, or null for none (every few columns have one). */
  tick: (i: number) => string | null;
  series: ColumnSeries[];
  /** Heading of the numbers table's first column. */
  columnHeading: string;
}

const HEIGHT = 200;
const PLOT_TOP = 10;
const PLOT_BOTTOM = 170;
const LEFT = 48;

/**
 * A stacked column chart as server-rendered SVG (works without a script, under the CSP): each column's
 * series stacked bottom up, a <title> per segment for pointer users, a legend, and the numbers themselves
 * in a table under "Numbers" for screen readers and for anyone who wants them.
 */
export function columnChart(chart: ColumnChart, id: string): SafeHtml {
  const totals = chart.columns.map((_, i) => chart.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const scale = niceScale(Math.max(0, ...totals));
  const step = Math.max(3, Math.min(24, Math.floor(800 / Math.max(1, chart.columns.length))));
  const width = LEFT + chart.columns.length * step + 8;
  const y = (v: number) => Math.round((PLOT_BOTTOM - (v / scale.top) * (PLOT_BOTTOM - PLOT_TOP)) * 10) / 10;
  const bar = Math.max(2, step - (step > 6 ? 2 : 1));

  const grid = scale.ticks.map(
    (t) =>
      html`<line class="grid" x1="${LEFT}" x2="${width - 4}" y1="${y(t)}" y2="${y(t)}"/><text class="axis" x="${LEFT - 6}" y="${y(t) + 4}" text-anchor="end">${count(t)}</text>`,
  );
  const columns = chart.columns.map((label, i) => {
    let base = 0;
    const x = LEFT + i * step + (step - bar) / 2;
    const segments = chart.series.map((s) => {
      const v = s.values[i] ?? 0;
      if (v === 0) return "";
      const top = y(base + v);
      const rect = html`<rect class="${s.className}" x="${x}" y="${top}" width="${bar}" height="${y(base) - top}"><title>${label}: ${count(v)} ${s.name}</title></rect>`;
      base += v;
      return rect;
    });
    const tick = chart.tick(i);
    return html`${segments}${tick === null ? "" : html`<text class="axis" x="${x + bar / 2}" y="${PLOT_BOTTOM + 16}" text-anchor="middle">${tick}</text>`}`;
  });

  const shown = chart.series.filter((s) => s.values.some((v) => v > 0));
  const sum = (s: ColumnSeries) => s.values.reduce((a, b) => a + b, 0);
  return html`<figure class="chart" id="${id}">
<figcaption>${chart.title}</figcaption>
<svg role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" viewBox="0 0 ${width} ${HEIGHT}" width="${width}" height="${HEIGHT}" preserveAspectRatio="xMinYMin meet">
<title id="${id}-title">${chart.title}</title>
<desc id="${id}-desc">${chart.summary}</desc>
${grid}<line class="baseline" x1="${LEFT}" x2="${width - 4}" y1="${PLOT_BOTTOM}" y2="${PLOT_BOTTOM}"/>
${columns}
</svg>
<ul class="legend">${shown.map((s) => html`<li>${swatch(s.className)} ${s.name} (${count(sum(s))})</li>`)}</ul>
<details><summary>Numbers: ${chart.title}</summary>
${table(
  [chart.columnHeading, ...shown.map((s) => s.name), "All"],
  chart.columns.map((label, i) => [label, ...shown.map((s) => count(s.values[i] ?? 0)), count(totals[i]!)]),
  "Nothing to show.",
)}
</details>
</figure>`;
}

/** A legend's colour square (decorative: the text beside it names the series). */
export const swatch = (className: string) =>
  html`<svg class="swatch" width="12" height="12" aria-hidden="true"><rect class="${className}" width="12" height="12"/></svg>`;
