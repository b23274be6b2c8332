import { Router } from "express";
import type { Database } from "@authsvc/db";
import { duration, siteOf, when } from "../html/format";
import { html } from "../html/html";
import { table } from "../html/table";
import { query } from "../http/form";
import { sendPage } from "../http/page";
import { orgOf } from "../orgs/org-context";

const PAGE = 100;
const STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** `/o/:orgId/jobs`: the org's auth jobs (metadata only), newest first; failed ones link their screenshot. */
export function jobRoutes(db: Database): Router {
  const r = Router({ mergeParams: true });

  r.get("/jobs", async (req, res) => {
    const org = orgOf(res);
    const wanted = query(req, "status");
    const status = (STATUSES as readonly string[]).includes(wanted) ? (wanted as (typeof STATUSES)[number]) : undefined;
    const jobs = await db.jobListings.forOrg(org.id, { limit: PAGE, status });
    const filters = html`<p class="filters">Show: ${[undefined, ...STATUSES].map((s) =>
      s === status ? html`<strong>${s ?? "all"}</strong> ` : html`<a href="/o/${org.id}/jobs${s ? `?status=${s}` : ""}">${s ?? "all"}</a> `,
    )}</p>`;
    sendPage(
      res,
      "Jobs",
      html`${filters}
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
  "No jobs yet.",
  (i) => html` data-job-id="${jobs[i]!.id}"`,
)}
<p class="muted">The newest ${PAGE}; records are kept as long as the job record (JOB_RETENTION_DAYS).</p>`,
      { current: "jobs" },
    );
  });

  return r;
}
