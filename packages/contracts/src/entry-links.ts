import { Type, type Static } from "@sinclair/typebox";
import { stringEnum } from "./string-enum";
import { collectionIdSchema, targetUrlSchema } from "./request-parts";
import type { InputRequest } from "./handoff";

/**
 * Credentials the end user types themselves: a link to a hosted page for one site. The service signs in
 * once with what they typed (a person finishes any step it cannot, on the hand-off page), stores the
 * credential encrypted and tells the organization (`credential.created`). The caller never sees the password.
 */

/** How long a link stays open by default, and at most (seconds). */
export const ENTRY_LINK_DEFAULT_EXPIRES_IN = 86_400;
export const ENTRY_LINK_MAX_EXPIRES_IN = 7 * 86_400;
/** How many sign-ins one link may start: each may count as an attempt on the account. */
export const ENTRY_LINK_MAX_TRIES = 3;

export const entryLinkRequestSchema = Type.Object(
  {
    // The site's login page, as `domain` in POST /v1/login.
    domain: targetUrlSchema,
    // How the end user signs in; `password` (with an authenticator's secret, if they use one) is the one offered.
    login_method: Type.Optional(stringEnum(["password"])),
    collectionId: Type.Optional(collectionIdSchema),
    // Seconds the link stays open (default 86400, at most 604800).
    expiresIn: Type.Optional(Type.Integer({ minimum: 60, maximum: ENTRY_LINK_MAX_EXPIRES_IN })),
  },
  { $id: "EntryLinkRequest", additionalProperties: false },
);
export type EntryLinkRequest = Static<typeof entryLinkRequestSchema>;

/**
 * `open`: waiting for the end user (again, after a sign-in the site refused: `lastError`); `validating`: a
 * sign-in with what they typed runs (`jobId`), `needs_input` when a person must finish a step of it
 * (`input`); `created`: it signed in and the credential is stored (`credentialId`), the link is spent;
 * `failed`: no tries are left; `expired`: nobody finished in time.
 */
export type EntryLinkStatus = "open" | "validating" | "needs_input" | "created" | "failed" | "expired";

export interface EntryLinkResource {
  linkId: string;
  /** The hosted page to send the end user to (no API key needed). */
  url: string;
  site: string;
  loginUrl: string;
  collectionId: string | null;
  loginMethod: "password";
  status: EntryLinkStatus;
  createdAt: string;
  expiresAt: string;
  /** Sign-ins started from the page, of `maxTries`. */
  tries: number;
  maxTries: number;
  /** The latest sign-in started from the page. */
  jobId: string | null;
  /** What that sign-in waits for, while it does (`needs_input`). */
  input?: InputRequest;
  credentialId: string | null;
  /** Why the latest sign-in failed (the site's verdict), while the link is open again or failed. */
  lastError: { code: string; message: string } | null;
}
