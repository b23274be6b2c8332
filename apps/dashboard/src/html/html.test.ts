import { escapeHtml, html, trusted } from "./html";

describe("html", () => {
  it("escapes every interpolated value, in text and in attributes", () => {
    const name = `<script>alert("x")</script>`;
    const attr = `" onmouseover="steal()`;
    const out = html`<p title="${attr}">${name}</p>`.value;
    expect(out).toBe(
      `<p title="&quot; onmouseover=&quot;steal()">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>`,
    );
    expect(escapeHtml("'`&")).toBe("&#39;&#96;&amp;");
  });

  it("nests safe fragments and lists without escaping them twice", () => {
    const items = ["a&b", "<c>"].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>`.value).toBe("<ul><li>a&amp;b</li><li>&lt;c&gt;</li></ul>");
    expect(html`${trusted("<br>")}`.value).toBe("<br>");
  });

  it("renders nothing for null, undefined and false, and numbers and dates as text", () => {
    expect(html`${null}${undefined}${false}|${0}|${new Date(0)}`.value).toBe("|0|1970-01-01T00:00:00.000Z");
  });
});
