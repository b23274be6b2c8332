import { RETRYABLE_CODES, type FieldError, type LoginFailureCode, type UnfinishedAccount } from "@authsvc/contracts";

export type { UnfinishedAccount };

const RETRYABLE: ReadonlySet<LoginFailureCode> = new Set(RETRYABLE_CODES);

/**
 * The one way a flow fails: a stable code the API answers with, a message fit to show the caller (the
 * site's own words where it gave some), and whether trying again could help. Wrong passwords never can.
 */
export class LoginFlowError extends Error {
  readonly retryable: boolean;
  /** What the caller can fix, field by field (`form_ambiguous`: the candidate fields); never a secret. */
  readonly details?: FieldError[];

  constructor(
    readonly code: LoginFailureCode,
    message: string,
    options: { retryable?: boolean; details?: FieldError[] } = {},
  ) {
    super(message);
    this.name = "LoginFlowError";
    this.retryable = options.retryable ?? RETRYABLE.has(code);
    if (options.details) this.details = options.details;
  }
}

/**
 * A signup that failed after its form was sent: the site may hold the account now (waiting for its email
 * to be confirmed, or created before a fault), so its password must be kept, never lost. Never retried.
 */
export class SignupUnfinishedError extends LoginFlowError {
  constructor(
    failure: LoginFlowError,
    readonly account: UnfinishedAccount,
  ) {
    super(failure.code, failure.message, { retryable: false });
    this.name = "SignupUnfinishedError";
  }
}
