import { LOGIN_FAILURE_CODES } from "@authsvc/contracts";
import { html, type SafeHtml } from "../html/html";
import { JOB_STATUSES, searchHref, type JobSearchForm } from "./job-search";

const selected = (on: boolean) => (on ? html` selected` : "");

/** The error code select: every code a job can end with (and the one searched for, should it be another). */
export function codeField(form: JobSearchForm): SafeHtml {
  const codes =
    LOGIN_FAILURE_CODES.includes(form.code as never) || !form.code
      ? [...LOGIN_FAILURE_CODES]
      : [form.code, ...LOGIN_FAILURE_CODES];
  return html`<label for="f-code">Error code</label><select id="f-code" name="code"><option value="">any</option>${codes.map((c) => html`<option${selected(c === form.code)}>${c}</option>`)}</select>`;
}

export function statusField(form: JobSearchForm): SafeHtml {
  return html`<label for="f-status">Status</label><select id="f-status" name="status"><option value="">any</option>${JOB_STATUSES.map((s) => html`<option${selected(s === form.status)}>${s}</option>`)}</select>`;
}

export function siteField(form: JobSearchForm): SafeHtml {
  return html`<label for="f-site">Site</label><input id="f-site" name="site" type="text" value="${form.site}" placeholder="example.com">`;
}

/** The charts' range travels with the search, so searching does not change the charts. */
export const keptRange = (form: JobSearchForm) =>
  form.range ? html`<input type="hidden" name="range" value="${form.range}">` : "";

/** "Next page" (older jobs) with the same search, and back to the first page once past it. */
export function pager(path: string, form: JobSearchForm, next: string | null): SafeHtml {
  return html`<nav class="pager" aria-label="Pages">${form.after ? html`<a href="${searchHref(path, form, { after: "" })}">First page</a>` : ""}
${next ? html`<a href="${searchHref(path, form, { after: next })}" rel="next">Next page</a>` : html`<span class="muted">No more jobs match.</span>`}</nav>`;
}
