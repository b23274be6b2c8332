import { html, type HtmlValue, type SafeHtml } from "./html";

/** A scrollable table (phones scroll it sideways); `empty` when there are no rows. */
export function table(
  headers: readonly string[],
  rows: readonly HtmlValue[][],
  empty: string,
  rowAttrs?: (i: number) => SafeHtml,
): SafeHtml {
  return html`<div class="table"><table>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${
    rows.length
      ? rows.map((cells, i) => html`<tr${rowAttrs ? rowAttrs(i) : ""}>${cells.map((c) => html`<td>${c}</td>`)}</tr>`)
      : html`<tr><td colspan="${headers.length}" class="muted">${empty}</td></tr>`
  }</tbody>
</table></div>`;
}
