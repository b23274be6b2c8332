import { JOB_EVENT_TYPES } from "./job-events";

// The OpenAPI document's schema of a job's event stream (the job, its error, its hand-off and its events
// are the TypeBox schemas of job-resource.ts, handoff.ts and job-events.ts).

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
