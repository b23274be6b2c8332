/** Pieces the request schemas share, so login, signup and refresh accept the same values the same way. */
import { Type, type Static } from "@sinclair/typebox";

// No control characters in ids and names that end up in keys and logs.
export const printable = "^[^\\u0000-\\u001f\\u007f]+$";

/** The target page: an http(s) URL. */
export const targetUrlSchema = Type.String({
  minLength: 1,
  maxLength: 2048,
  format: "uri",
  pattern: "^[hH][tT][tT][pP][sS]?://",
});

export const collectionIdSchema = Type.String({ minLength: 1, maxLength: 128, pattern: printable });

/** Extra form values, matched to fields by label: strings, numbers or booleans, 32 at most. */
const formValueSchema = Type.Union([Type.String({ maxLength: 1024 }), Type.Number(), Type.Boolean()]);
// Written as JSON Schema, typed by hand: TypeBox's Record writes `patternProperties`, a schema (and ajv
// answers) other than the API's.
export const additionalFieldsSchema = Type.Unsafe<Record<string, Static<typeof formValueSchema>>>({
  type: "object",
  maxProperties: 32,
  propertyNames: { minLength: 1, maxLength: 128, pattern: printable },
  additionalProperties: formValueSchema,
});

/** `allowHandoff` of the requests that run a login (login, refresh, verify): a person may answer what the service cannot. */
export const allowHandoffSchema = Type.Boolean({
  description:
    "Let a person answer a step the service cannot (default false: such a step ends the job, as `mfa_required`). The job then waits in `needs_input` " +
    "(202 with the job and its `input`) for POST /jobs/{jobId}/input, keeping its page, up to HANDOFF_MAX_WAIT_MS. Today: a one-time code the request " +
    "gave no way to read (an authenticator without `totpSecret`, a code sent to a number or address that is not ours), and a sign-in to approve on another device.",
});

/**
 * `region` of the requests that run a job (login, refresh, signup): the job runs only on a worker started for
 * that region (WORKER_REGIONS), and the credential keeps it for its later refreshes and keep-alive. The
 * operator names the regions; this is the shape of a name.
 */
export const REGION_PATTERN = "^[a-z][a-z0-9-]{0,31}$";
export const regionSchema = Type.String({
  pattern: REGION_PATTERN,
  description:
    "Run the job on a worker of this region only (the operator starts workers with WORKER_REGIONS). The credential keeps the region for its later " +
    "logins, refreshes and keep-alive until a request names another. A region with no worker running answers 503 `region_unavailable` after a short wait.",
});
