import { niceScale } from "./chart-scale";
import { columnChart } from "./column-chart";
import { pairedBars } from "./paired-bars";
import { html } from "../html/html";

describe("columnChart", () => {
  const chart = columnChart(
    {
      title: "Logins per hour",
      summary: "5 logins",
      columns: ["10:00", "11:00", "12:00"],
      tick: (i) => (i === 0 ? "10:00" : null),
      series: [
        { name: "succeeded", className: "o-ok", values: [2, 0, 1] },
        { name: `<script>alert("x")</script>`, className: "o-f1", values: [1, 0, 1] },
        { name: "never", className: "o-f2", values: [0, 0, 0] },
      ],
      columnHeading: "Hour",
    },
    "c1",
  ).value;

  it("is an image named by its title, described by its summary, with a segment per non-zero value", () => {
    expect(chart).toContain(`<svg role="img" aria-labelledby="c1-title" aria-describedby="c1-desc"`);
    expect(chart).toContain(`<title id="c1-title">Logins per hour</title>`);
    expect(chart).toContain(`<desc id="c1-desc">5 logins</desc>`);
    const plot = chart.slice(chart.indexOf('<svg role="img"'), chart.indexOf("</svg>"));
    expect(plot.match(/<rect class="o-/g)).toHaveLength(4);
    expect(chart).toContain("<title>10:00: 2 succeeded</title>");
  });

  it("writes the numbers in a table, leaves out empty series, and escapes every name", () => {
    const numbers = chart.slice(chart.indexOf("<details>"));
    expect(numbers).toContain("<summary>Numbers: Logins per hour</summary>");
    expect(numbers.replace(/\s+/g, "")).toContain("<tr><td>10:00</td><td>2</td><td>1</td><td>3</td></tr>");
    expect(chart).not.toContain("never");
    expect(chart).not.toContain("<script>");
    expect(chart).toContain("&lt;script&gt;");
  });

  it("uses no inline style (the dashboard's CSP refuses them): classes and presentation attributes only", () => {
    const bars = pairedBars(
      {
        title: "Codes",
        summary: "",
        names: ["last day", "before"],
        classNames: ["o-f1", "o-before"],
        rows: [{ label: "timeout", values: [3, 0.5], flag: "rose" }],
        format: String,
      },
      "p1",
      html``,
    ).value;
    for (const markup of [chart, bars]) expect(markup).not.toMatch(/style=|<style/);
    expect(bars).toContain(`<text class="flag"`);
    expect(bars).toContain(">rose</text>");
  });
});

describe("niceScale", () => {
  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect(niceScale(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(niceScale(7).top).toBe(8);
    expect(niceScale(37)).toEqual({ top: 40, ticks: [0, 10, 20, 30, 40] });
    expect(niceScale(41_000)).toEqual({ top: 60_000, ticks: [0, 20_000, 40_000, 60_000] });
  });
});
