import { Router, type Response } from "express";
import type { Database } from "@authsvc/db";
import { duration, siteOf, when } from "../html/format";
import { html, type SafeHtml } from "../html/html";
import { csrfField } from "../html/layout";
import { table } from "../html/table";
import { field, fields } from "../http/form";
import { HttpError } from "../http/http-error";
import { sendPage } from "../http/page";
import { sessionOf } from "../accounts/signed-in";
import { PAGE_SIZE, readJobSearch, splitPage } from "../job-lists/job-search";
import { codeField, pager, siteField } from "../job-lists/search-fields";
import { adminNav } from "./admin-nav";
import { REFUSAL_TEXT, type ReplayJob, type ReplayOutcome } from "./replay-port";

const JOB_ID = /^job_[0-9A-Za-z]{22}$/;
const MAX_REPLAY = 100;
// An organization searched by name matches at most this many.
const MAX_ORGS = 50;

/**
 * Platform staff only (mounted behind requirePlatformAdmin): failed jobs of every organization, searched by
 * error code, site, organization and time and paged by a keyset, and replay of one or a selection. A job
 * whose password the site refused is replayed only after an explicit confirmation: a second refusal can
 * lock the account.
 */
export function adminRoutes(db: Database, replay: ReplayJob, queuesPath: string): Router {
  const r = Router();

  r.get("/admin/failed-jobs", async (req, res) => {
    const path = "/admin/failed-jobs";
    const { form, search } = readJobSearch(req, ["code", "site", "org", "since", "until"]);
    const orgIds = form.org ? await db.organizations.matching(form.org, MAX_ORGS + 1) : undefined;
    // Never a list that quietly leaves some of the matching organizations out.
    if (orgIds && orgIds.length > MAX_ORGS)
      throw new HttpError(
        400,
        `More than ${MAX_ORGS} organizations match "${form.org}": give more of the name, or the organization's id.`,
      );
    const { jobs, next } = splitPage(await db.jobListings.failed({ ...search, orgIds, limit: PAGE_SIZE + 1 }));
    const csrf = res.locals.csrfToken as string;
    sendPage(
      res,
      "Failed jobs",
      html`${adminNav("failed-jobs", queuesPath)}
<form method="get" action="${path}" class="filters" aria-label="Search failed jobs">
  ${codeField(form)}
  ${siteField(form)}
  <label for="f-org">Organization</label><input id="f-org" name="org" type="text" value="${form.org}" placeholder="name or org_…">
  <label for="f-since">From (UTC)</label><input id="f-since" name="since" type="datetime-local" value="${form.since}">
  <label for="f-until">To (UTC)</label><input id="f-until" name="until" type="datetime-local" value="${form.until}">
  <button type="submit" class="secondary">Filter</button>
</form>
<form method="post" action="/admin/replay">
${csrfField(csrf)}
${table(
  ["", "When", "Organization", "Kind", "Method", "Site", "Error", "Attempts", ""],
  jobs.map((j) => [
    html`<input type="checkbox" name="jobs" value="${j.id}" aria-label="Select ${j.id}">`,
    when(j.createdAt),
    j.org.name,
    j.kind,
    j.method,
    siteOf(j.loginUrl),
    html`<code>${j.errorCode ?? ""}</code> ${j.errorMessage ?? ""}`,
    j.attempts,
    html`<button type="submit" name="job" value="${j.id}">Replay</button> <a href="/admin/jobs/${j.id}">${j.id}</a>`,
  ]),
  "No failed jobs match.",
  (i) => html` data-job-id="${jobs[i]!.id}"`,
)}
<fieldset class="filters"><legend>Selected jobs</legend><button type="submit">Replay</button></fieldset>
</form>
${pager(path, form, next)}
<p class="muted">Newest first, ${PAGE_SIZE} a page. A replay runs the job again from its stored inputs, under the same job id.</p>`,
      { current: "admin" },
    );
  });

  r.post("/admin/replay", async (req, res) => {
    const one = field(req, "job");
    const ids = [...new Set(one ? [one] : fields(req, "jobs"))].filter((id) => JOB_ID.test(id)).slice(0, MAX_REPLAY);
    if (!ids.length) throw new HttpError(400, "Select at least one job to replay.");
    const confirmed = field(req, "confirm") === "refused-password";
    const outcomes: Array<[string, ReplayOutcome]> = [];
    for (const id of ids)
      outcomes.push([id, await replay(id, { confirmRefusedPassword: confirmed, by: sessionOf(res)!.user.email })]);
    const needConfirmation = outcomes
      .filter(([, o]) => !o.replayed && o.code === "needs_confirmation")
      .map(([id]) => id);
    sendPage(res, "Replay", await replayReport(db, res, outcomes, needConfirmation), { current: "admin" });
  });

  r.get("/admin/jobs/:jobId", async (req, res) => {
    const id = String(req.params.jobId);
    const job = JOB_ID.test(id) ? await db.jobListings.findAny(id) : null;
    if (!job) throw HttpError.notFound("job");
    sendPage(
      res,
      `Job ${job.id}`,
      html`<dl>
<dt>Organization</dt><dd>${job.org.name} <code>${job.orgId}</code></dd>
<dt>Kind, method</dt><dd>${job.kind}, ${job.method}</dd>
<dt>Site</dt><dd>${siteOf(job.loginUrl)}</dd>
<dt>Status</dt><dd id="job-status">${job.status}</dd>
<dt>Error</dt><dd>${job.errorCode ? html`<code>${job.errorCode}</code> ${job.errorMessage ?? ""}` : "—"}</dd>
<dt>Attempts</dt><dd id="job-attempts">${job.attempts}</dd>
<dt>Created, finished</dt><dd>${when(job.createdAt)}, ${when(job.finishedAt)} (${duration(job.durationMs)})</dd>
</dl>
<p><a href="/admin/failed-jobs">Failed jobs</a></p>`,
      { current: "admin" },
    );
  });

  return r;
}

async function replayReport(
  db: Database,
  res: Response,
  outcomes: Array<[string, ReplayOutcome]>,
  needConfirmation: string[],
): Promise<SafeHtml> {
  const replayed = outcomes.filter(([, o]) => o.replayed).map(([id]) => id);
  const refused = outcomes.filter(([, o]) => !o.replayed && o.code !== "needs_confirmation") as Array<
    [string, Extract<ReplayOutcome, { replayed: false }>]
  >;
  const pending = await Promise.all(needConfirmation.map((id) => db.jobListings.findAny(id)));
  return html`${replayed.length ? html`<p class="notice" role="status">Replaying ${replayed.length} job${replayed.length === 1 ? "" : "s"}: ${replayed.map((id) => html`<a href="/admin/jobs/${id}">${id}</a> `)}</p>` : ""}
${refused.length ? html`<div class="error" role="alert"><p>Not replayed:</p><ul>${refused.map(([id, o]) => html`<li><code>${id}</code>: ${REFUSAL_TEXT[o.code]}</li>`)}</ul></div>` : ""}
${
  pending.length
    ? html`<h2>Confirm: the site refused these passwords</h2>
<p>Replaying sends the same password (or code) again. Sites lock accounts after a few refusals; replay only when you know the refusal was the site's fault.</p>
${table(
  ["Job", "Organization", "Site", "Error"],
  pending
    .filter((j) => j !== null)
    .map((j) => [
      j!.id,
      j!.org.name,
      siteOf(j!.loginUrl),
      html`<code>${j!.errorCode ?? ""}</code> ${j!.errorMessage ?? ""}`,
    ]),
  "",
)}
<form method="post" action="/admin/replay">${csrfField(res.locals.csrfToken as string)}<input type="hidden" name="confirm" value="refused-password">${needConfirmation.map((id) => html`<input type="hidden" name="jobs" value="${id}">`)}
<button type="submit" class="danger">Replay anyway</button> <a href="/admin/failed-jobs">Cancel</a></form>`
    : ""
}
<p><a href="/admin/failed-jobs">Back to failed jobs</a></p>`;
}
