import type { Router } from "express";
import type { Accounts } from "../accounts";
import type { Outbox } from "../outbox";
import { sessionCookie } from "./kit";

/** What a login on a fixture page must end with. Codes are the API's error codes. */
export interface LoginCase {
  name: string;
  /** The URL a caller would give, from the fixture server's base URL. */
  url: (sitesUrl: string) => string;
  /** Verdict with the right password: "success", or the error code the page must produce. */
  expect: "success" | "account_locked" | "captcha_blocked" | "mfa_required" | "form_not_found";
  /** What a successful login leaves: a cookie (name and host) and/or a localStorage key (and its origin). */
  session?: {
    cookie?: string;
    cookieDomain?: string;
    /** The cookie must outlive this many days (remember me ticked, "stay signed in" answered yes). */
    persistentDays?: number;
    storageKey?: string;
    storageHost?: string;
    otherCookies?: Array<{ name: string; domain: string }>;
  };
  /** The page that greets a signed-in user by name when sent `session.cookie`. */
  account?: string;
  /** The verdict for a wrong password, on cases where one can be given (`login_unconfirmed`: the page says nothing). */
  wrongPassword?: "invalid_credentials" | "account_locked" | "login_unconfirmed" | "login_blocked";
  /** Words the page answers a wrong password with, which the verdict's message must quote. */
  refusal?: string;
  /** Words the page answers an unknown username with (on an identifier-first page): invalid_credentials, quoting them. */
  unknownIdentifier?: string;
  /** Words the page answers a wrong one-time code with (a TOTP case, given the wrong secret): verification_failed, quoting them. */
  wrongCode?: string;
  additionalFields?: Record<string, string>;
  lockedUser?: boolean;
  /** The user has a TOTP secret, and logins pass it as `totpSecret`. */
  totp?: boolean;
  /** The user has a TOTP secret, and logins do not pass it (the site must be answered mfa_required). */
  withoutSecret?: boolean;
  /** Where the site counts attempts (its fixture name). */
  site: string;
}

/** A page whose code or link is sent to the service's own inbox (email through mail-in, SMS through the webhook). */
export interface SentCodeCase {
  name: string;
  method: "otp_email" | "magic_link" | "password" | "otp_sms";
  expect: string;
}

/** What the routers of a case are built from. */
export interface CaseContext {
  accounts: Accounts;
  outbox: Outbox;
  /** Which version of its page the redesign case serves now (`POST /__fixture/redesign`). */
  redesignVersion: () => number;
}

/**
 * A case module's registration: the routers serving its pages, and what the tests iterate over them.
 * Either may be missing: a case can be a second verdict on another entry's page (or on a sites/ page), and
 * some pages are driven by their own suites only.
 */
export interface FixtureCase {
  router?: (ctx: CaseContext) => Router | Router[];
  cases?: LoginCase[];
  sentCodes?: SentCodeCase[];
}

export const defineCase = (fixture: FixtureCase): FixtureCase => fixture;

export const at = (path: string) => (sitesUrl: string) => `${sitesUrl}${path}`;
export const onHost = (host: string, path: string) => (sitesUrl: string) => sitesUrl.replace("127.0.0.1", host) + path;

/** A case under `/cases/<name>/`: its own site, session cookie and account page, signed in with the right password. */
export function standard(name: string, extra: Partial<LoginCase> = {}): LoginCase {
  return {
    name,
    site: name,
    url: at(`/cases/${name}/login`),
    expect: "success",
    session: { cookie: sessionCookie(name), cookieDomain: "127.0.0.1" },
    account: `/cases/${name}/account`,
    wrongPassword: "invalid_credentials",
    ...extra,
  };
}

/** The verdict of a page that never signs in: a CAPTCHA stands before the password is checked. */
export const captchaBlocked = (name: string): LoginCase =>
  standard(name, { expect: "captcha_blocked", session: undefined, wrongPassword: undefined });

/** The verdict of a page that asks a person for a second step after the password. */
export const mfaRequired = (name: string): LoginCase => standard(name, { expect: "mfa_required", session: undefined });
