import { Type, type Static } from "@sinclair/typebox";
import { stringEnum } from "./string-enum";
import { collectionIdSchema, targetUrlSchema } from "./request-parts";
import { inputRequestSchema } from "./handoff";
import { nullable } from "./nullable";
import { componentRef } from "./schema-refs";

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
export const ENTRY_LINK_STATUSES = ["open", "validating", "needs_input", "created", "failed", "expired"] as const;
export type EntryLinkStatus = (typeof ENTRY_LINK_STATUSES)[number];

export const entryLinkSchema = Type.Object({
  linkId: Type.String({ pattern: "^elink_" }),
  url: Type.String({
    format: "uri",
    description:
      "The hosted page to send the end user to: no API key, no account. It names the organization and the site, and takes a username, a password and, optionally, an authenticator's secret.",
  }),
  site: Type.String({ description: "Origin of the site." }),
  loginUrl: Type.String(),
  collectionId: nullable(Type.String()),
  loginMethod: stringEnum(["password"]),
  status: stringEnum(ENTRY_LINK_STATUSES, {
    description:
      "`open`: waiting for the end user (again after a sign-in the site refused: `lastError`); `validating`: a sign-in with what they typed runs (`jobId`); " +
      "`needs_input`: a step of it waits for them (`input`, its hand-off page is shown to them too); `created`: it signed in and the credential is stored " +
      "(`credentialId`), the link is spent; `failed`: no tries left; `expired`: nobody finished in time.",
  }),
  createdAt: Type.String({ format: "date-time" }),
  expiresAt: Type.String({ format: "date-time" }),
  tries: Type.Integer({
    description:
      "Sign-ins started from the page. Each may count as an attempt on the account, so a link takes at most `maxTries`.",
  }),
  maxTries: Type.Integer(),
  jobId: nullable(Type.String(), {
    description: "The latest sign-in started from the page (GET /v1/jobs/{jobId}).",
  }),
  input: Type.Optional(
    componentRef("InputRequest", inputRequestSchema, {
      description: "What that sign-in waits for, while it does (`needs_input`).",
    }),
  ),
  credentialId: nullable(Type.String({ pattern: "^cred_" })),
  lastError: nullable(Type.Object({ code: Type.String(), message: Type.String() }), {
    description: "Why the latest sign-in failed, in the site's words where it gave some.",
  }),
});
export type EntryLinkResource = Static<typeof entryLinkSchema>;
