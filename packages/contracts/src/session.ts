import type { FieldError } from "./error-body";
import type { InputRequest } from "./handoff";
/** A cookie as the API returns it. `expires` is Unix time in seconds; -1 marks a session cookie. */
export interface Cookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: "Strict" | "Lax" | "None";
}

/**
 * An IndexedDB database of an origin, in the shape Playwright's `storageState({ indexedDB: true })` writes
 * and `newContext({ storageState })` restores. A record's key is given only for stores without a keyPath;
 * `value`/`key` hold JSON-like data, `valueEncoded`/`keyEncoded` anything else (dates, binary) in
 * Playwright's serialized form.
 */
export interface IndexedDbDatabase {
  name: string;
  version: number;
  stores: Array<{
    name: string;
    keyPath?: string;
    keyPathArray?: string[];
    autoIncrement: boolean;
    indexes: Array<{ name: string; keyPath?: string; keyPathArray?: string[]; multiEntry: boolean; unique: boolean }>;
    records: Array<{ key?: unknown; keyEncoded?: unknown; value?: unknown; valueEncoded?: unknown }>;
  }>;
}

/** Playwright's storageState shape, so `browser.newContext({ storageState })` loads it unchanged. */
export interface StorageState {
  cookies: Cookie[];
  origins: Array<{
    origin: string;
    localStorage: Array<{ name: string; value: string }>;
    indexedDB?: IndexedDbDatabase[];
  }>;
}

/** Playwright's `httpCredentials` context option: the username and password a site's HTTP authentication takes, for its origin. */
export interface HttpCredentials {
  username: string;
  password: string;
  origin: string;
}

/** What a successful login answers (spec §2.2), plus the full storageState. */
export interface SessionResponse {
  cookies: Cookie[];
  origins: string[];
  storageState: StorageState;
  /**
   * The site signs in by HTTP authentication (a Basic or Digest challenge answered with the credentials) and
   * keeps no session of its own beyond it: a browser must send them again, as Playwright's
   * `newContext({ httpCredentials })` does. Absent where the session is the cookies and storage.
   */
  httpCredentials?: HttpCredentials;
  /**
   * The User-Agent of the browser that made the session. Some sites bind a session to it (Tiny Tiny RSS,
   * many PHP applications against session theft: another User-Agent is signed out), so a browser that uses
   * the session sends it, as Playwright's `newContext({ userAgent })` does. Absent only in sessions stored
   * before it was recorded.
   */
  userAgent?: string;
}

/**
 * A session as the worker captured it: what the API answers, and the page the login ended on, signed in.
 * `signedInPage` is kept (encrypted, with the session) for the session check, which fetches it with the
 * session's cookies; it is never part of an API answer.
 */
export interface CapturedSession extends SessionResponse {
  signedInPage?: string;
}

/** The API's part of a captured session: `signedInPage` left out. */
export function answerOf(session: CapturedSession): SessionResponse {
  const { signedInPage: _kept, ...answer } = session;
  return answer;
}

/** `needs_input`: running, and waiting for a person (`input`; answer with POST /v1/jobs/{jobId}/input). */
export type JobStatus = "queued" | "running" | "needs_input" | "succeeded" | "failed";

/** GET /v1/jobs/:id, and the 202 answer of a login still running. */
export interface JobResource {
  jobId: string;
  status: JobStatus;
  result?: SessionResponse;
  /**
   * `credentialId`: a signup that failed after its form was sent keeps the account's password there.
   * `details`: what the caller can fix, field by field (`form_ambiguous`: the candidate fields).
   */
  error?: { code: string; message: string; credentialId?: string; details?: FieldError[] };
  /** While `needs_input`: what it waits for a person to answer. */
  input?: InputRequest;
  /** Where its progress streams (Server-Sent Events, `JobEvent`): `/v1/jobs/{jobId}/events`. */
  eventsUrl: string;
}

/**
 * The site's memory of a credential's browser, kept encrypted with the credential and never in an answer:
 * the long-lived cookies it set to trust the device (brought into the next login), and the keys
 * (`domain|path|name`) of those found to carry a session instead (left out, without looking again).
 */
export interface RememberedDevice {
  cookies: Cookie[];
  passOver: string[];
}
