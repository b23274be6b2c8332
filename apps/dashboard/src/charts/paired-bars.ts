import { html, type SafeHtml } from "../html/html";
import { swatch } from "./column-chart";
import { niceScale } from "./chart-scale";

export interface PairedBarRow {
  label: string;
  /** The two values compared (e.g. the last day, and the daily average of the week before). */
  values: [number, number];
  /** Shown after the bars in words (e.g. "rose"), so a flag never rests on colour alone. */
  flag?: string;
}

export interface PairedBars {
  title: string;
  summary: string;
  /** The names of the two values, and their classes (`.chart .…`). */
  names: [string, string];
  classNames: [string, string];
  rows: PairedBarRow[];
  format: (v: number) => string;
}

const ROW = 30;
const LABEL = 190;
const PLOT = 360;

/**
 * Horizontal bars, two per row (one value against another), as server-rendered SVG with the values written
 * at the bars' ends; `numbers` (the caller's table of them) goes inside the figure.
 */
export function pairedBars(chart: PairedBars, id: string, numbers: SafeHtml): SafeHtml {
  const scale = niceScale(Math.max(0, ...chart.rows.flatMap((r) => r.values)));
  const width = LABEL + PLOT + 150;
  const height = chart.rows.length * ROW + 8;
  const w = (v: number) => Math.round((v / scale.top) * PLOT * 10) / 10;
  const rows = chart.rows.map((row, i) => {
    const top = 4 + i * ROW;
    const bars = row.values.map((v, k) => {
      const y = top + k * 12;
      return html`<rect class="${chart.classNames[k]}" x="${LABEL}" y="${y}" width="${Math.max(w(v), v > 0 ? 1 : 0)}" height="10"><title>${row.label}: ${chart.format(v)} ${chart.names[k]}</title></rect>
<text class="value" x="${LABEL + Math.max(w(v), 0) + 4}" y="${y + 9}">${chart.format(v)}</text>`;
    });
    return html`<text class="label" x="${LABEL - 8}" y="${top + 14}" text-anchor="end">${row.label}</text>${bars}${row.flag ? html`<text class="flag" x="${LABEL + PLOT + 70}" y="${top + 14}">${row.flag}</text>` : ""}`;
  });
  return html`<figure class="chart" id="${id}">
<figcaption>${chart.title}</figcaption>
<svg role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" preserveAspectRatio="xMinYMin meet">
<title id="${id}-title">${chart.title}</title>
<desc id="${id}-desc">${chart.summary}</desc>
${rows}
</svg>
<ul class="legend">${chart.names.map((name, k) => html`<li>${swatch(chart.classNames[k]!)} ${name}</li>`)}</ul>
${numbers}
</figure>`;
}
