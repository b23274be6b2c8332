/** The API's shapes of a browser job: its resource, its errors, its events and its hand-off to a person. */
import type { FieldError } from "./generated/api-types";
import type { SessionResponse } from "./types";

/** `needs_input`: running, and waiting for a person (`input`; answer with `jobs.input`). */
export type JobStatus = "queued" | "running" | "needs_input" | "succeeded" | "failed";

export const HANDOFF_REASONS = ["code", "approval", "captcha", "choice", "answer", "verification", "consent"] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/** What a job in `needs_input` asks a person; never a secret. */
export interface InputRequest {
  reason: HandoffReason;
  /** The site's own words at that step; after a refused answer, the site's refusal. */
  prompt: string;
  fields: string[];
  choices?: string[];
  expiresAt: string;
  /** The hosted hand-off page (no API key): a live view of the browser tab, for the person to use. */
  handoffUrl?: string;
}

export interface JobError {
  code: string;
  message: string;
  credentialId?: string;
  /** What the caller can fix, field by field (`form_ambiguous`: the candidate fields, as `/additionalFields/<name>`). */
  details?: FieldError[];
}

/** GET /v1/jobs/{jobId}, and the body of a 202 answer. */
export interface JobResource<Result = SessionResponse> {
  jobId: string;
  status: JobStatus;
  result?: Result;
  error?: JobError;
  eventsUrl: string;
  /** While `needs_input`: what it waits for a person to answer. */
  input?: InputRequest;
}

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

/** One step of a job, as GET /v1/jobs/{jobId}/events streams it. Never carries a secret or the session. */
export interface JobEvent {
  type: JobEventType;
  jobId: string;
  at: string;
  attempt?: number;
  origin?: string;
  address?: string;
  number?: string;
  code?: string;
  credentialId?: string;
  error?: JobError;
  input?: InputRequest;
}
