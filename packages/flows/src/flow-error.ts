import type { LoginFailureCode } from "@authsvc/contracts";

const RETRYABLE: ReadonlySet<LoginFailureCode> = new Set(["target_unreachable", "timeout", "internal_error"]);

/**
 * The one way a flow fails: a stable code the API answers with, a message fit to show the caller (the
 * site's own words where it gave some), and whether trying again could help. Wrong passwords never can.
 */
export class LoginFlowError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly code: LoginFailureCode,
    message: string,
    options: { retryable?: boolean } = {},
  ) {
    super(message);
    this.name = "LoginFlowError";
    this.retryable = options.retryable ?? RETRYABLE.has(code);
  }
}
