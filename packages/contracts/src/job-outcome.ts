import type { CapturedSession } from "./session";

/**
 * What a flow hands back to the job that ran it, where the flows (page logic) and the jobs room (records,
 * credentials, events) must agree on a shape.
 */

/** What a signup created on the site: the account and its password. */
export interface CreatedAccount {
  email: string | null;
  /** The username the site accepted (a variant when the one asked for was taken); null without a username field. */
  username: string | null;
  password: string;
  passwordGenerated: boolean;
  /** What it signs in with: the email, else the username. */
  identifier: string;
  /** Where it signs in: the page the flow logged in on, the signup page's "Log in" link, or the signup page. */
  loginUrl: string;
}

/** What a signup created before it could not finish (its email unconfirmed, its password not mailed yet). */
export interface UnfinishedAccount extends CreatedAccount {
  /**
   * The site made it without a password and mails one, or a link to set one, which never came (or was
   * refused): `password` is not the account's yet, only the caller's to set (empty without one).
   */
  awaitsPassword: boolean;
}

/**
 * A signup that signed its new account in: the account and the session (a verify that finishes a mailed
 * signup ends so too). Its `kind` tells it from a login's result, which a verify may end with as well.
 */
export interface SignedUpAccount extends CreatedAccount {
  kind: "signup";
  session: CapturedSession;
  /** `signup`: the site signed the new account in; `login`: the flow logged in after the signup. */
  signedInBy: "signup" | "login";
}
