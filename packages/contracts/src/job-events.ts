import { Type, type Static } from "@sinclair/typebox";
import { inputRequestSchema } from "./handoff";
import { jobErrorSchema } from "./job-resource";
import { componentRef } from "./schema-refs";
import { stringEnum } from "./string-enum";

/**
 * A job's progress, as `GET /v1/jobs/{jobId}/events` streams it (Server-Sent Events): one SSE event per
 * step, its `event:` the type, its `id:` the position to resume after (`Last-Event-ID`), its `data:` a
 * JobEvent as JSON. Events carry no secret: no password, code, cookie or session; a succeeded job's session
 * is read from `GET /v1/jobs/{jobId}`. Clients ignore types they do not know (more may come). What each
 * type means is JOB_EVENT_MEANINGS.
 */
export const JOB_EVENT_TYPES = [
  "queued",
  "started",
  "navigating",
  "form_found",
  "submitted",
  "waiting_for_email",
  "waiting_for_sms",
  "verifying",
  "needs_input",
  "retrying",
  "succeeded",
  "failed",
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

// Exhaustive by type: a new JOB_EVENT_TYPES entry does not compile until it is described here.
const JOB_EVENT_MEANINGS: Record<JobEventType, string> = {
  queued: "The job is in the queue (again, after a retry or an operator's replay).",
  started: "A worker took it; `attempt` counts from 1.",
  navigating: "The browser is opening the page; `origin` (the origin only: a path may hold an invite token).",
  form_found: "The login or signup form was found.",
  submitted: "The form was sent: from here on the job is never retried.",
  waiting_for_email: "Waiting for the site's mail (code, link, password); `address` is the inbox's address.",
  waiting_for_sms: "Waiting for the site's text message; `number` is the phone number.",
  verifying: "Reading the site's answer: signed in, refused, or asking for more.",
  needs_input:
    "Waiting for a person (the request allowed a hand-off): `input` says what for; answer with POST /jobs/{jobId}/input. Told again after a refused answer, with the site's words.",
  retrying: "A failed attempt is tried again (only before the form was sent); `code` is why.",
  succeeded: "Last event: a session was made (read it from GET /jobs/{jobId}); `credentialId` names the credential.",
  failed: "Last event: no session; `error` is the API's error.",
};

/** The events after which a job's stream ends (unless an admin's replay queues it again). */
export const FINAL_JOB_EVENTS: readonly JobEventType[] = ["succeeded", "failed"];

/** One step of a job, as the `data:` line of its Server-Sent Event. */
export const jobEventSchema = Type.Object(
  {
    type: stringEnum(JOB_EVENT_TYPES, {
      description: JOB_EVENT_TYPES.map((t) => `\`${t}\`: ${JOB_EVENT_MEANINGS[t]}`).join(" "),
    }),
    jobId: Type.String({ pattern: "^job_" }),
    at: Type.String({ format: "date-time" }),
    attempt: Type.Optional(Type.Integer({ minimum: 1 })),
    origin: Type.Optional(Type.String()),
    address: Type.Optional(Type.String()),
    number: Type.Optional(Type.String({ description: "E.164" })),
    code: Type.Optional(Type.String({ description: "`retrying`: the error code of the attempt that failed." })),
    credentialId: Type.Optional(Type.String({ pattern: "^cred_" })),
    error: Type.Optional(componentRef("JobError", jobErrorSchema)),
    input: Type.Optional(componentRef("InputRequest", inputRequestSchema)),
  },
  {
    description:
      "Carries no secret: no password, code, cookie or session. Clients ignore types they do not know; more may come.",
  },
);
export type JobEvent = Static<typeof jobEventSchema>;

/** The path of a job's event stream, relative to the API's base (what 202 answers link to). */
export function jobEventsPath(jobId: string): string {
  return `/v1/jobs/${jobId}/events`;
}
