/** The benchmarks' tables: the rows of `pnpm bench`, the statistics and units its figures are written in, and Markdown. */

/** One line of the table: a figure, the baseline it is compared with, their ratio and the goal. */
export interface Row {
  figure: string;
  value: string;
  baseline: string;
  ratio: string;
  goal: string;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
export function percentile(xs: number[], p: number): number {
  const s = sorted(xs);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
}
export const median = (xs: number[]) => percentile(xs, 50);
export const ms = (x: number) => `${x.toFixed(0)} ms`;
export const mib = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MiB`;
export const times = (x: number) => `${x.toFixed(2)}x`;
export const spread = (xs: number[]) => `p50 ${ms(median(xs))}, p99 ${ms(percentile(xs, 99))}`;
/** A row with a figure only: nothing to compare it with. */
export const figureRow = (figure: string, value: string): Row => ({
  figure,
  value,
  baseline: "—",
  ratio: "—",
  goal: "—",
});

/** A Markdown table of these columns; each row's cells in their order (the caller escapes what needs it). */
export function markdownTable(head: string[], rows: string[][]): string {
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const cells of rows) lines.push(`| ${cells.join(" | ")} |`);
  return lines.join("\n");
}

/** The benchmark's table of rows. */
export const benchTable = (rows: Row[]) =>
  markdownTable(
    ["figure", "measured", "baseline", "ratio", "goal"],
    rows.map((r) => [r.figure, r.value, r.baseline, r.ratio, r.goal]),
  );
