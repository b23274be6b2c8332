import type { InputRequest } from "./handoff";

/**
 * A job's progress, as `GET /v1/jobs/{jobId}/events` streams it (Server-Sent Events): one SSE event per
 * step, its `event:` the type, its `id:` the position to resume after (`Last-Event-ID`), its `data:` this
 * object as JSON. Events carry no secret: no password, code, cookie or session; a succeeded job's session is
 * read from `GET /v1/jobs/{jobId}`. Clients ignore types they do not know (more may come).
 */
export const JOB_EVENT_TYPES = [
  /** The job is in the queue (again, after a retry or an admin's replay). */
  "queued",
  /** A worker took the job: `attempt` counts from 1. */
  "started",
  /** The browser is opening the page: `origin` (the page's origin only; its path may hold an invite token). */
  "navigating",
  /** The login (or signup) form was found on the page. */
  "form_found",
  /** The form was sent to the site: from here on the job is never retried. */
  "submitted",
  /** Waiting for the site's mail (a code, a link, a password): `address` is the inbox's address. */
  "waiting_for_email",
  /** Waiting for the site's text message: `number` is the phone number. */
  "waiting_for_sms",
  /** Reading the site's answer: whether it signed in, refused, or asks for more. */
  "verifying",
  /**
   * Waiting for a person (the request allowed a hand-off): `input` says what for; answer with POST
   * /v1/jobs/{jobId}/input. Told again after a refused answer, with the site's words.
   */
  "needs_input",
  /** A failed attempt will be tried again (only before the form was sent): `code` is why. */
  "retrying",
  /** Finished with a session (read it from GET /v1/jobs/{jobId}); `credentialId` names the credential. Last event. */
  "succeeded",
  /** Finished without one: `error` is the API's error (code, message, credentialId). Last event. */
  "failed",
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/** The events after which a job's stream ends (unless an admin's replay queues it again). */
export const FINAL_JOB_EVENTS: readonly JobEventType[] = ["succeeded", "failed"];

export interface JobEvent {
  type: JobEventType;
  jobId: string;
  /** When it happened (ISO 8601). */
  at: string;
  attempt?: number;
  origin?: string;
  address?: string;
  number?: string;
  code?: string;
  credentialId?: string;
  error?: { code: string; message: string; credentialId?: string };
  input?: InputRequest;
}

/** The path of a job's event stream, relative to the API's base (what 202 answers link to). */
export function jobEventsPath(jobId: string): string {
  return `/v1/jobs/${jobId}/events`;
}
