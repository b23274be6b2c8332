import { ERROR_CODES, type ErrorCode, type FieldError } from "@authsvc/contracts";

/** A failure the API answers with: its code fixes the HTTP status (packages/contracts/error-codes). */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[],
    readonly headers: Record<string, string> = {},
    /** A signup that failed after its form was sent: the credential that keeps the account's password. */
    readonly credentialId?: string,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_CODES[code].status;
  }

  static invalid(details: FieldError[]): ApiError {
    const summary = details.map((d) => `${d.field} ${d.message}`).join("; ");
    return new ApiError("invalid_request", `The request body is invalid: ${summary}`, details);
  }
}
