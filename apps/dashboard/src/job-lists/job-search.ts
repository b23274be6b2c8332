import type { Request } from "express";
import type { JobCursor, JobSearch } from "@authsvc/db";
import { HttpError } from "../http/http-error";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export const PAGE_SIZE = 50;

/** What a job list's search form and links carry, as typed (strings; "" when absent). */
export interface JobSearchForm {
  status: string;
  code: string;
  site: string;
  /** Platform staff: an organization's id, or a part of its name. */
  org: string;
  since: string;
  until: string;
  /** The charts' range on the same page, kept by the list's links. */
  range: string;
  /** The page marker: `<creation time in ms>-<job id>` of the previous page's last job. */
  after: string;
}

export type SearchField = Exclude<keyof JobSearchForm, "after" | "range">;

const LIMITS: Record<keyof JobSearchForm, number> = {
  status: 20,
  code: 40,
  site: 200,
  org: 200,
  since: 19,
  until: 19,
  range: 10,
  after: 60,
};
const ERROR_CODE = /^[a-z_]{1,40}$/;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const CURSOR = /^(\d{1,15})-(job_[0-9A-Za-z]{22})$/;

function text(req: Request, name: keyof JobSearchForm): string {
  const value = req.query[name];
  if (value === undefined) return "";
  if (typeof value !== "string")
    throw new HttpError(400, `The search field "${name}" was given more than once or in pieces; give it once.`);
  const trimmed = value.trim();
  if (trimmed.length > LIMITS[name])
    throw new HttpError(400, `The search field "${name}" is too long (at most ${LIMITS[name]} characters).`);
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw new HttpError(400, `The search field "${name}" contains control characters.`);
  return trimmed;
}

function time(value: string, label: string): Date | undefined {
  if (!value) return undefined;
  const at = LOCAL_TIME.test(value) ? new Date(`${value}Z`) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw new HttpError(400, `"${label}" must be a date and time like 2026-11-30T14:00 (UTC).`);
  return at;
}

export function encodeCursor(job: JobCursor): string {
  return `${job.createdAt.getTime()}-${job.id}`;
}

/**
 * A job list's search from the query string: only the fields this list offers (others are ignored); a
 * value that is malformed, repeated or too long is refused with a 400 that says which, never a 500 and
 * never silently dropped (a list that quietly ignored the filter would look like an answer).
 */
export function readJobSearch(
  req: Request,
  fields: readonly SearchField[],
): { form: JobSearchForm; search: Omit<JobSearch, "limit" | "orgIds"> } {
  const form: JobSearchForm = {
    status: "",
    code: "",
    site: "",
    org: "",
    since: "",
    until: "",
    range: text(req, "range"),
    after: text(req, "after"),
  };
  for (const f of fields) form[f] = text(req, f);
  if (form.status && !(JOB_STATUSES as readonly string[]).includes(form.status))
    throw new HttpError(400, `Status must be one of ${JOB_STATUSES.join(", ")}.`);
  if (form.code && !ERROR_CODE.test(form.code))
    throw new HttpError(400, "An error code is lower-case letters and underscores, like invalid_credentials.");
  const since = time(form.since, "From");
  const until = time(form.until, "To");
  if (since && until && since > until) throw new HttpError(400, `"From" must not be after "To".`);
  let after: JobCursor | undefined;
  if (form.after) {
    const m = CURSOR.exec(form.after);
    if (!m)
      throw new HttpError(
        400,
        "This page link is not valid (its `after` marker is malformed); start again from the first page.",
      );
    after = { createdAt: new Date(Number(m[1])), id: m[2]! };
  }
  return {
    form,
    search: {
      status: (form.status || undefined) as JobSearch["status"],
      errorCode: form.code || undefined,
      site: form.site || undefined,
      since,
      until,
      after,
    },
  };
}

/** The list's address with the form's fields (the empty ones left out) and `changes` applied. */
export function searchHref(path: string, form: JobSearchForm, changes: Partial<JobSearchForm> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...form, ...changes })) if (v) params.set(k, v);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Fetches one more job than a page holds to know whether another page follows; returns the page and the
 * next page's marker (null on the last page).
 */
export function splitPage<T extends JobCursor>(rows: T[]): { jobs: T[]; next: string | null } {
  const jobs = rows.slice(0, PAGE_SIZE);
  return { jobs, next: rows.length > PAGE_SIZE ? encodeCursor(jobs[jobs.length - 1]!) : null };
}
