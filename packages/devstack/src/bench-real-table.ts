import { markdownTable } from "./bench-table";

/** The real-application bench's table: a row a case, and how its times and messages are written. */

export interface Row {
  app: string;
  case: string;
  expected: string;
  got: string;
  ok: boolean;
  proven: string;
  ms: number | null;
  baseline: string;
}

export const fmtMs = (x: number | null) => (x === null ? "—" : `${(x / 1000).toFixed(1)} s`);
export const oneLine = (s: string, n: number) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** A case the service gave no answer to (the request itself failed). */
export const noAnswer = (app: string, name: string, expected: string, err: Error, baseline: string): Row => ({
  app,
  case: name,
  expected,
  got: `no answer: ${oneLine(err.message, 80)}`,
  ok: false,
  proven: "—",
  ms: null,
  baseline,
});

export const realAppsTable = (rows: Row[]) =>
  markdownTable(
    ["app", "case", "expected", "got", "session proven", "time", "baseline"],
    rows.map((r) =>
      [r.app, r.case, r.expected, `${r.ok ? "✓" : "✗"} ${r.got}`, r.proven, fmtMs(r.ms), r.baseline].map((c) =>
        c.replace(/\|/g, "\\|"),
      ),
    ),
  );
