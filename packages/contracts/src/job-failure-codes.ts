import { ERROR_CODES, type ErrorCode, type JobEndpoint } from "./error-codes";

// The lists the service branches on, read off the error table (error-codes.ts), so a code's facts are
// written once: in its row.

type Row<K extends ErrorCode> = (typeof ERROR_CODES)[K];
type Flagged<F extends "retryable" | "credentialFailure"> = {
  [K in ErrorCode]: Row<K>[F] extends true ? K : never;
}[ErrorCode];

/** Codes a login or signup job can end with; they are what the worker records and the gateway answers. */
export type LoginFailureCode = { [K in ErrorCode]: Row<K>["endpoints"] extends readonly [] ? never : K }[ErrorCode];

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

export const LOGIN_FAILURE_CODES: readonly LoginFailureCode[] = codes.filter(
  (c): c is LoginFailureCode => ERROR_CODES[c].endpoints.length > 0,
);

/** The failures the queue may run a job again after (by default: a flow may say otherwise). */
export const RETRYABLE_CODES: readonly Flagged<"retryable">[] = codes.filter(
  (c): c is Flagged<"retryable"> => ERROR_CODES[c].retryable,
);

/** Failures that say the stored credential no longer works (rather than the site or we had a bad moment). */
export const CREDENTIAL_FAILURE_CODES: readonly Flagged<"credentialFailure">[] = codes.filter(
  (c): c is Flagged<"credentialFailure"> => ERROR_CODES[c].credentialFailure,
);

/** How the jobs of an endpoint can end, in the table's order. */
export function failuresOf(endpoint: JobEndpoint): LoginFailureCode[] {
  return LOGIN_FAILURE_CODES.filter((c) => (ERROR_CODES[c].endpoints as readonly JobEndpoint[]).includes(endpoint));
}
