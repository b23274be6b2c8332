import { fieldErrorSchema } from "./error-body";
import { ERROR_CODES } from "./error-codes";
import { HANDOFF_REASONS } from "./handoff";
import { JOB_EVENT_TYPES, type JobEventType } from "./job-events";

// The OpenAPI document's schemas of a browser job: its resource, its error, its hand-off and its events.

export const job = {
  type: "object",
  required: ["jobId", "status", "eventsUrl"],
  properties: {
    jobId: { type: "string", pattern: "^job_" },
    eventsUrl: { type: "string", description: "Its progress as Server-Sent Events: `/v1/jobs/{jobId}/events`." },
    status: {
      type: "string",
      enum: ["queued", "running", "needs_input", "succeeded", "failed"],
      description:
        "`needs_input`: running, and waiting for a person (the request allowed a hand-off); `input` says what for.",
    },
    result: { $ref: "#/components/schemas/Session" },
    error: { $ref: "#/components/schemas/JobError" },
    input: { $ref: "#/components/schemas/InputRequest" },
  },
};

/** What a job in `needs_input` asks a person (packages/contracts/src/handoff.ts); never a secret. */
export const inputRequest = {
  type: "object",
  required: ["reason", "prompt", "fields", "expiresAt"],
  properties: {
    reason: {
      type: "string",
      enum: HANDOFF_REASONS,
      description:
        "`code`: a one-time code the request gave no way to read (an authenticator without `totpSecret`, a code sent to a number or address that is not ours). " +
        "`approval`: a sign-in to approve on another device (a push to a phone); the page goes on by itself once approved, and the question is withdrawn. " +
        "`captcha`: a challenge only a person can solve (an image of distorted characters, a picture puzzle): solved on the hand-off page, whose live view " +
        "they click and type in; they may send the form there themselves. `{}` says it is solved: the page is looked at again. " +
        "`answer`: a security question; `{answer}` is typed and sent. `choice`: a chooser of the account or organization to go on as; `{choice}` is one of `choices`. " +
        '`verification`: a "verify it\'s you" step (a new device, an unusual sign-in): with `fields: ["answer"]` the detail it asks (the account\'s phone number, its recovery address) is typed and sent; ' +
        "with `fields: []` it waits for something done elsewhere (a link mailed to the person): `{}` once done, and the page is loaded again. " +
        '`consent`: the site holds the sign-in until its terms are accepted; `choices` are the page\'s answers ("Accept and continue", "Decline"), and only the person decides: declined terms that keep the account out end `consent_denied`.',
    },
    prompt: {
      type: "string",
      description: "The site's own words at that step; after a refused answer, the site's refusal.",
    },
    fields: {
      type: "array",
      items: { type: "string", enum: ["code", "choice", "answer"] },
      description: "What the answer carries; [] when `{}` (look again) is the answer.",
    },
    choices: {
      type: "array",
      items: { type: "string" },
      description: "The choices offered, for a chooser or the site's terms (`consent`).",
    },
    expiresAt: {
      type: "string",
      format: "date-time",
      description: "When the hand-off ends unanswered: the job then fails with `input_timeout`.",
    },
    handoffUrl: {
      type: "string",
      format: "uri",
      description:
        "The hosted hand-off page, for the person (no API key, no account): the organization, the site's origin, a live view of the browser tab they can click and type in, and a status line. Good while the job waits; 410 once it ended. Absent when the service has no DASHBOARD_URL.",
    },
  },
};

/** A failed job's error: the one the synchronous call would have answered (its status is the code's). */
export const jobError = {
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "string", enum: Object.keys(ERROR_CODES) },
    message: { type: "string" },
    credentialId: {
      type: "string",
      pattern: "^cred_",
      description: "As in the error body: the credential a failed signup kept.",
    },
    details: {
      type: "array",
      items: fieldErrorSchema,
      description:
        "What the caller can fix, field by field (`form_ambiguous`: the candidate fields, as `/additionalFields/<name>`).",
    },
  },
};

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

/** One step of a job (packages/contracts/src/job-events.ts), as the `data:` line of its Server-Sent Event. */
export const jobEvent = {
  type: "object",
  required: ["type", "jobId", "at"],
  description:
    "Carries no secret: no password, code, cookie or session. Clients ignore types they do not know; more may come.",
  properties: {
    type: {
      type: "string",
      enum: JOB_EVENT_TYPES,
      description: JOB_EVENT_TYPES.map((t) => `\`${t}\`: ${JOB_EVENT_MEANINGS[t]}`).join(" "),
    },
    jobId: { type: "string", pattern: "^job_" },
    at: { type: "string", format: "date-time" },
    attempt: { type: "integer", minimum: 1 },
    origin: { type: "string" },
    address: { type: "string" },
    number: { type: "string", description: "E.164" },
    code: { type: "string", description: "`retrying`: the error code of the attempt that failed." },
    credentialId: { type: "string", pattern: "^cred_" },
    error: { $ref: "#/components/schemas/JobError" },
    input: { $ref: "#/components/schemas/InputRequest" },
  },
};

/**
 * The body of GET /jobs/{jobId}/events: Server-Sent Events, modelled as the sequence of its messages
 * (what OpenAPI 3.2 calls `itemSchema`); each `data` is one line of JSON, a JobEvent.
 */
export const jobEventStream = {
  type: "array",
  items: {
    type: "object",
    required: ["id", "event", "data"],
    properties: {
      id: { type: "string", description: "Opaque position: send it back as `Last-Event-ID` to resume after it." },
      event: { type: "string", enum: JOB_EVENT_TYPES },
      data: {
        type: "string",
        contentMediaType: "application/json",
        contentSchema: { $ref: "#/components/schemas/JobEvent" },
      },
    },
  },
};
