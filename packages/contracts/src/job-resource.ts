/** A browser job as the API shows it (GET /v1/jobs/{jobId}, and the 202 answer of a call that outlived the wait). */
import { Type, type Static } from "@sinclair/typebox";
import { fieldErrorSchema } from "./error-body";
import { ERROR_CODES, type ErrorCode } from "./error-codes";
import { inputRequestSchema } from "./handoff";
import { componentRef } from "./schema-refs";
import { sessionSchema } from "./session";
import { stringEnum } from "./string-enum";

/** `needs_input`: running, and waiting for a person (`input`; answer with POST /v1/jobs/{jobId}/input). */
export const JOB_STATUSES = ["queued", "running", "needs_input", "succeeded", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** A failed job's error: the one the synchronous call would have answered (its status is the code's). */
export const jobErrorSchema = Type.Object({
  code: stringEnum(Object.keys(ERROR_CODES) as ErrorCode[]),
  message: Type.String(),
  credentialId: Type.Optional(
    Type.String({ pattern: "^cred_", description: "As in the error body: the credential a failed signup kept." }),
  ),
  details: Type.Optional(
    Type.Array(fieldErrorSchema, {
      description:
        "What the caller can fix, field by field (`form_ambiguous`: the candidate fields, as `/additionalFields/<name>`).",
    }),
  ),
});
export type JobError = Static<typeof jobErrorSchema>;

export const jobSchema = Type.Object({
  jobId: Type.String({ pattern: "^job_" }),
  eventsUrl: Type.String({ description: "Its progress as Server-Sent Events: `/v1/jobs/{jobId}/events`." }),
  status: stringEnum(JOB_STATUSES, {
    description:
      "`needs_input`: running, and waiting for a person (the request allowed a hand-off); `input` says what for.",
  }),
  result: Type.Optional(componentRef("Session", sessionSchema)),
  error: Type.Optional(componentRef("JobError", jobErrorSchema)),
  input: Type.Optional(
    componentRef("InputRequest", inputRequestSchema, {
      description: "While `needs_input`: what it waits for a person to answer.",
    }),
  ),
});
export type JobResource = Static<typeof jobSchema>;
