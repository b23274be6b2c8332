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

/** What a signup created on the site before it could not finish: the account and its password. */
export interface UnfinishedAccount {
  email: string | null;
  username: string | null;
  password: string;
  passwordGenerated: boolean;
  /** What it signs in with: the email, else the username. */
  identifier: string;
  /** Where it signs in: the signup page's "Log in" link, else the signup page. */
  loginUrl: string;
  /**
   * The site made it without a password and mails one, or a link to set one, which never came (or was
   * refused): `password` is not the account's yet, only the caller's to set (empty without one).
   */
  awaitsPassword: boolean;
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
