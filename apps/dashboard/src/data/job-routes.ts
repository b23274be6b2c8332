import { Router } from "express";
import type { Database } from "@authsvc/db";
import { jobCharts } from "../charts/job-charts";
import { chartRange } from "../charts/chart-range";
import { duration, siteOf, when } from "../html/format";
import { html } from "../html/html";
import { table } from "../html/table";
import { HttpError } from "../http/http-error";
import { sendPage } from "../http/page";
import { PAGE_SIZE, readJobSearch, searchHref, splitPage } from "../job-lists/job-search";
import { codeField, keptRange, pager, siteField, statusField } from "../job-lists/search-fields";
import { orgOf } from "../orgs/org-context";

const JOB_ID = /^job_[0-9A-Za-z]{22}$/;

/**
 * `/o/:orgId/jobs`: the org's charts (from the job stats; on the first page), then its auth jobs (metadata only), newest
 * first, searched by status, site and error code and paged by a keyset; a job's page, with the redacted
 * screenshot the worker took of a failed job's last page (stored encrypted, decrypted only to be sent here).
 */
export function jobRoutes(db: Database): Router {
  const r = Router({ mergeParams: true });

  r.get("/jobs", async (req, res) => {
    const org = orgOf(res);
    const path = `/o/${org.id}/jobs`;
    const { form, search } = readJobSearch(req, ["status", "code", "site"]);
    const range = chartRange(form.range);
    // The charts are the organization's, whatever the search: drawn on the first page of the list, not
    // again on every page an operator steps through.
    const [rows, charts] = await Promise.all([
      db.jobListings.forOrg(org.id, { ...search, limit: PAGE_SIZE + 1 }),
      form.after
        ? html`<p class="muted">The charts are on <a href="${searchHref(path, form, { after: "" })}">the first page</a>.</p>`
        : jobCharts(db, { orgId: org.id }, range, (to) =>
            searchHref(path, form, { range: to === "day" ? "" : to, after: "" }),
          ),
    ]);
    const { jobs, next } = splitPage(rows);
    sendPage(
      res,
      "Jobs",
      html`${charts}
<h2>Job list</h2>
<form method="get" action="${path}" class="filters" aria-label="Search jobs">
  ${statusField(form)}
  ${siteField(form)}
  ${codeField(form)}
  ${keptRange(form)}
  <button type="submit" class="secondary">Search</button>
</form>
${table(
  ["When", "Kind", "Method", "Site", "Status", "Error", "Duration", "Attempts", "Job"],
  jobs.map((j) => [
    when(j.createdAt),
    j.kind,
    j.method,
    siteOf(j.loginUrl),
    j.status,
    j.errorCode ? html`<code>${j.errorCode}</code> ${j.errorMessage ?? ""}` : "—",
    duration(j.durationMs),
    j.attempts,
    html`<a href="/o/${org.id}/jobs/${j.id}">${j.id}</a>`,
  ]),
  form.status || form.site || form.code ? "No jobs match." : "No jobs yet.",
  (i) => html` data-job-id="${jobs[i]!.id}"`,
)}
${pager(path, form, next)}
<p class="muted">Newest first, ${PAGE_SIZE} a page; records are kept as long as the job record (JOB_RETENTION_DAYS).</p>`,
      { current: "jobs" },
    );
  });

  r.get("/jobs/:jobId", async (req, res) => {
    const org = orgOf(res);
    const id = String(req.params.jobId);
    const job = JOB_ID.test(id) ? await db.jobListings.findInOrg(org.id, id) : null;
    if (!job) throw HttpError.notFound("job");
    const hasScreenshot = job.status === "failed" && (await db.jobScreenshots.find(org.id, job.id)) !== null;
    sendPage(
      res,
      `Job ${job.id}`,
      html`<dl>
<dt>Kind, method</dt><dd>${job.kind}, ${job.method}</dd>
<dt>Site</dt><dd>${siteOf(job.loginUrl)}</dd>
<dt>Status</dt><dd>${job.status}</dd>
<dt>Error</dt><dd>${job.errorCode ? html`<code>${job.errorCode}</code> ${job.errorMessage ?? ""}` : "—"}</dd>
<dt>Attempts</dt><dd>${job.attempts}</dd>
<dt>Created, finished</dt><dd>${when(job.createdAt)}, ${when(job.finishedAt)} (${duration(job.durationMs)})</dd>
</dl>
${
  hasScreenshot
    ? html`<h2>Last page</h2><p class="muted">Taken by the worker when the job failed; password fields blanked.</p>
<img class="screenshot" src="/o/${org.id}/jobs/${job.id}/screenshot" alt="Screenshot of the last page of job ${job.id}">`
    : job.status === "failed"
      ? html`<p class="muted">No screenshot of this job's last page.</p>`
      : ""
}
<p><a href="/o/${org.id}/jobs">All jobs</a></p>`,
      { current: "jobs" },
    );
  });

  r.get("/jobs/:jobId/screenshot", async (req, res) => {
    const id = String(req.params.jobId);
    const shot = JOB_ID.test(id) ? await db.jobScreenshots.find(orgOf(res).id, id) : null;
    if (!shot) throw HttpError.notFound("screenshot");
    res.type(shot.contentType).setHeader("Content-Disposition", "inline").send(shot.image);
  });

  return r;
}
