// Prints the file-by-file timing table of a test run from the JSON lines the summary reporter wrote
// (scripts/jest-summary-reporter.cjs), slowest first, so the next slow file is seen the day it lands.
// Usage: node scripts/test-times.cjs [--summary] FILE...   (--summary: only the whole run's totals line)
const fs = require("node:fs");

const summaryOnly = process.argv[2] === "--summary";
const rows = process.argv
  .slice(summaryOnly ? 3 : 2)
  .filter((f) => fs.existsSync(f))
  .flatMap((f) =>
    fs
      .readFileSync(f, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
  );
if (rows.length === 0) process.exit(0);
const total = { passed: 0, failed: 0, skipped: 0 };
for (const r of rows) for (const k of Object.keys(total)) total[k] += r.counts?.[k] ?? 0;
if (summaryOnly) {
  // The whole run in one plain line any CI can read (each jest process printed its own).
  console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(0);
}
rows.sort((a, b) => b.seconds - a.seconds);
const width = Math.max(...rows.map((r) => r.file.length));
const line = (s, project, file, mark = "") => `${s.padStart(8)}  ${project.padEnd(5)} ${file.padEnd(width)}${mark}`;
console.log(`\ntest files, slowest first (seconds of each file's own run; the projects run side by side):`);
console.log(line("seconds", "", "file"));
for (const r of rows) console.log(line(r.seconds.toFixed(1), r.project, r.file, r.failed ? "  FAILED" : ""));
const tests = rows
  .flatMap((r) => (r.tests ?? []).map((t) => ({ ...t, file: r.file })))
  .sort((a, b) => b.seconds - a.seconds)
  .slice(0, 10);
if (tests.length > 0) {
  console.log("slowest tests:");
  for (const t of tests)
    console.log(
      `${t.seconds.toFixed(1).padStart(8)}  ${t.file}: ${t.name.length > 110 ? `${t.name.slice(0, 110)}…` : t.name}`,
    );
}
const failures = rows.flatMap((r) => (r.failures ?? []).map((f) => ({ ...f, file: r.file })));
if (failures.length > 0) {
  console.log("failed tests:");
  for (const f of failures)
    console.log(
      `- ${f.file}: ${f.name}\n${f.message
        .split("\n")
        .map((l) => `    ${l}`)
        .join("\n")}`,
    );
}
const byProject = {};
for (const r of rows) byProject[r.project] = (byProject[r.project] ?? 0) + r.seconds;
console.log(
  Object.entries(byProject)
    .map(([p, s]) => `${p}: ${rows.filter((r) => r.project === p).length} files, ${s.toFixed(0)} s`)
    .join("; "),
);
