import type { Request } from "express";
import type { FailedJobFilter } from "@authsvc/db";
import { query } from "../http/form";

const ERROR_CODE = /^[a-z_]{1,40}$/;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

export interface FailedJobsQuery {
  code: string;
  site: string;
  since: string;
  until: string;
}

/** The admin filter from the query string; anything malformed is ignored, never an error. Times are UTC. */
export function readFailedJobsQuery(req: Request): { form: FailedJobsQuery; filter: Omit<FailedJobFilter, "limit"> } {
  const form = { code: query(req, "code", 40), site: query(req, "site", 200), since: query(req, "since", 19), until: query(req, "until", 19) };
  const time = (text: string) => (LOCAL_TIME.test(text) && !Number.isNaN(Date.parse(`${text}Z`)) ? new Date(`${text}Z`) : undefined);
  return {
    form,
    filter: {
      errorCode: ERROR_CODE.test(form.code) ? form.code : undefined,
      site: form.site || undefined,
      since: time(form.since),
      until: time(form.until),
    },
  };
}
