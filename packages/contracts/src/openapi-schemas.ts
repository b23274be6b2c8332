import { errorBodySchema } from "./error-body";
import { ERROR_CODES } from "./error-codes";
import { passkeyEnrolRequestSchema, refreshRequestSchema, verifyRequestSchema } from "./credentials";
import { mailboxRequestSchema } from "./inboxes";
import { JOB_EVENT_TYPES, type JobEventType } from "./job-events";
import { HANDOFF_REASONS, inputAnswerSchema } from "./handoff";
import { entryLinkRequestSchema } from "./entry-links";
import { WEBHOOK_EVENTS, webhookRequestSchema } from "./webhooks";
import { PROXY_REGIONS, proxyRequestSchema } from "./proxies";
import { loginRequestSchema } from "./login-request";
import { cookieSchema, sessionSchema } from "./session";
import { signupRequestSchema } from "./signup-request";

// The OpenAPI document's schemas (components.schemas): the request schemas are the ones the gateway
// validates with, the rest describe what it answers.

const job = {
  type: "object",
  required: ["jobId", "status", "eventsUrl"],
  properties: {
    jobId: { type: "string", pattern: "^job_" },
    eventsUrl: { type: "string", description: "Its progress as Server-Sent Events: `/v1/jobs/{jobId}/events`." },
    status: {
      type: "string",
      enum: ["queued", "running", "needs_input", "succeeded", "failed"],
      description:
        "`needs_input`: running, and waiting for a person (the request allowed a hand-off); `input` says what for.",
    },
    result: { $ref: "#/components/schemas/Session" },
    error: { $ref: "#/components/schemas/JobError" },
    input: { $ref: "#/components/schemas/InputRequest" },
  },
};

/** What a job in `needs_input` asks a person (packages/contracts/src/handoff.ts); never a secret. */
const inputRequest = {
  type: "object",
  required: ["reason", "prompt", "fields", "expiresAt"],
  properties: {
    reason: {
      type: "string",
      enum: HANDOFF_REASONS,
      description:
        "`code`: a one-time code the request gave no way to read (an authenticator without `totpSecret`, a code sent to a number or address that is not ours). " +
        "`approval`: a sign-in to approve on another device (a push to a phone); the page goes on by itself once approved, and the question is withdrawn. " +
        "`captcha`: a challenge only a person can solve (an image of distorted characters, a picture puzzle): solved on the hand-off page, whose live view " +
        "they click and type in; they may send the form there themselves. `{}` says it is solved: the page is looked at again. " +
        "`answer`: a security question; `{answer}` is typed and sent. `choice`: a chooser of the account or organization to go on as; `{choice}` is one of `choices`. " +
        '`verification`: a "verify it\'s you" step (a new device, an unusual sign-in): with `fields: ["answer"]` the detail it asks (the account\'s phone number, its recovery address) is typed and sent; ' +
        "with `fields: []` it waits for something done elsewhere (a link mailed to the person): `{}` once done, and the page is loaded again. " +
        '`consent`: the site holds the sign-in until its terms are accepted; `choices` are the page\'s answers ("Accept and continue", "Decline"), and only the person decides: declined terms that keep the account out end `consent_denied`.',
    },
    prompt: {
      type: "string",
      description: "The site's own words at that step; after a refused answer, the site's refusal.",
    },
    fields: {
      type: "array",
      items: { type: "string", enum: ["code", "choice", "answer"] },
      description: "What the answer carries; [] when `{}` (look again) is the answer.",
    },
    choices: {
      type: "array",
      items: { type: "string" },
      description: "The choices offered, for a chooser or the site's terms (`consent`).",
    },
    expiresAt: {
      type: "string",
      format: "date-time",
      description: "When the hand-off ends unanswered: the job then fails with `input_timeout`.",
    },
    handoffUrl: {
      type: "string",
      format: "uri",
      description:
        "The hosted hand-off page, for the person (no API key, no account): the organization, the site's origin, a live view of the browser tab they can click and type in, and a status line. Good while the job waits; 410 once it ended. Absent when the service has no DASHBOARD_URL.",
    },
  },
};

/** A failed job's error: the one the synchronous call would have answered (its status is the code's). */
const jobError = {
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "string", enum: Object.keys(ERROR_CODES) },
    message: { type: "string" },
    credentialId: {
      type: "string",
      pattern: "^cred_",
      description: "As in the error body: the credential a failed signup kept.",
    },
  },
};

const { $id: _id, ...loginRequest } = loginRequestSchema;
const { $id: _iid, ...inputAnswer } = inputAnswerSchema;
const { $id: _mid, ...mailboxRequest } = mailboxRequestSchema;
const { $id: _rid, ...refreshRequest } = refreshRequestSchema;
const { $id: _vid, ...verifyRequest } = verifyRequestSchema;
const { $id: _peid, ...passkeyEnrolRequest } = passkeyEnrolRequestSchema;

const credentialMethod = {
  type: "object",
  required: ["type"],
  description:
    "One way the credential signs in: its stored secret's method (a `totp` secret lists `password` and `totp`), or one of its passkeys (its id, relying party and dates; never its key).",
  properties: {
    type: {
      type: "string",
      enum: [
        "password",
        "totp",
        "otp_email",
        "magic_link",
        "otp_sms",
        "oauth_google",
        "oauth_github",
        "oauth",
        "passkey",
      ],
    },
    passkeyId: { type: "string", pattern: "^pk_" },
    rpId: { type: "string", description: "The relying party (the site's domain) the passkey is for." },
    createdAt: { type: "string", format: "date-time" },
    lastUsedAt: { type: ["string", "null"], format: "date-time" },
  },
};

const passkeyEnrolment = {
  allOf: [
    { $ref: "#/components/schemas/StoredCredentialSession" },
    {
      type: "object",
      required: ["passkey"],
      properties: { passkey: { $ref: "#/components/schemas/CredentialMethod" } },
    },
  ],
};
// What an import answers: the passkey kept, with no session (no browser ran).
const passkeyImported = {
  type: "object",
  required: ["passkey", "credentialId"],
  additionalProperties: false,
  properties: {
    passkey: { $ref: "#/components/schemas/CredentialMethod" },
    credentialId: { type: "string", pattern: "^cred_" },
  },
};
// POST /v1/credentials/{id}/passkeys: an enrolment's sign-in and passkey, or an import's passkey.
const passkeyAdded = {
  oneOf: [{ $ref: "#/components/schemas/PasskeyEnrolment" }, { $ref: "#/components/schemas/PasskeyImported" }],
};
// What refresh and verify answer: a login's session, with the stored credential it signed in with.
const storedCredentialSession = {
  allOf: [
    { $ref: "#/components/schemas/Session" },
    {
      type: "object",
      required: ["credentialId"],
      properties: {
        credentialId: { type: "string", pattern: "^cred_" },
        expiresAt: {
          type: "string",
          format: "date-time",
          description: "The latest persistent cookie's expiry; absent when all cookies are session cookies.",
        },
      },
    },
  ],
};
const { $id: _wid, ...webhookRequest } = webhookRequestSchema;
const { $id: _pid, ...proxyRequest } = proxyRequestSchema;

const proxy = {
  type: "object",
  required: ["id", "address", "label", "region", "createdAt"],
  properties: {
    id: { type: "string", pattern: "^prx_" },
    address: {
      type: "string",
      description: "`scheme://host:port`: the URL without its credentials (never shown again).",
    },
    label: {
      type: ["string", "null"],
      description: "Its pool: `proxyPool` on a login names the proxies of one label.",
    },
    region: {
      type: ["string", "null"],
      enum: [...PROXY_REGIONS, null],
      description:
        "Where it leaves from: the browser of a credential that first signs in through it is one of that region (locale, time zone).",
    },
    createdAt: { type: "string", format: "date-time" },
  },
};
const { $id: _sid, ...signupRequest } = signupRequestSchema;
const signupResult = {
  allOf: [
    { $ref: "#/components/schemas/Session" },
    {
      type: "object",
      required: ["credentialId", "account"],
      properties: {
        credentialId: {
          type: "string",
          pattern: "^cred_",
          description: "The stored credential: POST /refresh logs in with it.",
        },
        expiresAt: {
          type: "string",
          format: "date-time",
          description: "The latest persistent cookie's expiry; absent when all cookies are session cookies.",
        },
        account: {
          type: "object",
          required: ["email", "username", "passwordGenerated"],
          properties: {
            email: { type: ["string", "null"] },
            username: {
              type: ["string", "null"],
              description: "As the site accepted it: a variant when the one asked for was taken.",
            },
            passwordGenerated: {
              type: "boolean",
              description: "The service made up the password; it is stored encrypted and never shown.",
            },
          },
        },
        passkey: {
          $ref: "#/components/schemas/CredentialMethod",
          description: "`createPasskey`: the passkey added to the new account; absent when the site offered none.",
        },
      },
    },
  ],
};
const webhook = {
  type: "object",
  required: ["id", "url", "events", "createdAt"],
  properties: {
    id: { type: "string", pattern: "^whk_" },
    url: { type: "string" },
    events: { type: "array", items: { type: "string", enum: WEBHOOK_EVENTS } },
    createdAt: { type: "string", format: "date-time" },
    secret: { type: "string", description: "Only in the answer to POST: the HMAC-SHA256 signing secret, shown once." },
  },
};

const credential = {
  type: "object",
  required: [
    "credentialId",
    "site",
    "loginPage",
    "loginUrl",
    "username",
    "collectionId",
    "createdAt",
    "lastLoginAt",
    "status",
    "lastError",
    "deviceRememberedAt",
    "region",
  ],
  properties: {
    credentialId: { type: "string", pattern: "^cred_" },
    site: { type: "string", description: "Origin of the site." },
    loginPage: {
      type: "string",
      description: "Origin + path of the login page: with username and collection, what names the credential.",
    },
    loginUrl: { type: "string" },
    username: { type: "string" },
    collectionId: { type: ["string", "null"] },
    createdAt: { type: "string", format: "date-time" },
    lastLoginAt: { type: ["string", "null"], format: "date-time" },
    status: { type: "string", enum: ["active", "failing", "pending", "pending_verification"] },
    lastError: { type: ["string", "null"], description: "Error code of the last failed login." },
    deviceRememberedAt: {
      type: ["string", "null"],
      format: "date-time",
      description:
        "Since when the service keeps the site's memory of this credential's browser: the long-lived cookies the site set to trust the device (after a second factor, or \"remember me\"), encrypted, brought into its next login or refresh so the site need not ask again. Null when none is kept.",
    },
    region: {
      type: ["string", "null"],
      description:
        "The worker region its logins, refreshes and keep-alive run in: the last `region` a request named for it. Null: any worker.",
    },
    methods: {
      type: "array",
      items: { $ref: "#/components/schemas/CredentialMethod" },
      description:
        "`GET /v1/credentials/{id}` only: how it signs in, its stored secret's method then its passkeys, oldest first. Empty before a login worked.",
    },
  },
};

const { $id: _elid, ...entryLinkRequest } = entryLinkRequestSchema;

const entryLink = {
  type: "object",
  required: [
    "linkId",
    "url",
    "site",
    "loginUrl",
    "collectionId",
    "loginMethod",
    "status",
    "createdAt",
    "expiresAt",
    "tries",
    "maxTries",
    "jobId",
    "credentialId",
    "lastError",
  ],
  properties: {
    linkId: { type: "string", pattern: "^elink_" },
    url: {
      type: "string",
      format: "uri",
      description:
        "The hosted page to send the end user to: no API key, no account. It names the organization and the site, and takes a username, a password and, optionally, an authenticator's secret.",
    },
    site: { type: "string", description: "Origin of the site." },
    loginUrl: { type: "string" },
    collectionId: { type: ["string", "null"] },
    loginMethod: { type: "string", enum: ["password"] },
    status: {
      type: "string",
      enum: ["open", "validating", "needs_input", "created", "failed", "expired"],
      description:
        "`open`: waiting for the end user (again after a sign-in the site refused: `lastError`); `validating`: a sign-in with what they typed runs (`jobId`); " +
        "`needs_input`: a step of it waits for them (`input`, its hand-off page is shown to them too); `created`: it signed in and the credential is stored " +
        "(`credentialId`), the link is spent; `failed`: no tries left; `expired`: nobody finished in time.",
    },
    createdAt: { type: "string", format: "date-time" },
    expiresAt: { type: "string", format: "date-time" },
    tries: {
      type: "integer",
      description:
        "Sign-ins started from the page. Each may count as an attempt on the account, so a link takes at most `maxTries`.",
    },
    maxTries: { type: "integer" },
    jobId: {
      type: ["string", "null"],
      description: "The latest sign-in started from the page (GET /v1/jobs/{jobId}).",
    },
    input: { $ref: "#/components/schemas/InputRequest" },
    credentialId: { type: ["string", "null"], pattern: "^cred_" },
    lastError: {
      type: ["object", "null"],
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" } },
      description: "Why the latest sign-in failed, in the site's words where it gave some.",
    },
  },
};

const mailbox = {
  type: "object",
  required: ["id", "address", "label", "forwarding", "createdAt"],
  properties: {
    id: { type: "string", pattern: "^mbx_" },
    address: {
      type: "string",
      description: "On the service's mail domain; use it as the account's email on the site.",
    },
    label: { type: ["string", "null"] },
    forwarding: { type: "boolean", description: "The organization's forwarding inbox: forward your own mailbox here." },
    createdAt: { type: "string", format: "date-time" },
  },
};
const inboundMessage = {
  type: "object",
  required: ["id", "from", "subject", "recipient", "originalRecipients", "receivedAt", "authenticated", "code", "link"],
  properties: {
    id: { type: "string", pattern: "^msg_" },
    from: { type: "string" },
    subject: { type: "string" },
    recipient: { type: "string", description: "Our address it was delivered to, with any +tag." },
    originalRecipients: {
      type: "array",
      items: { type: "string" },
      description: "Whom a forwarded message was first sent to (from its headers); [] for mail sent to us directly.",
    },
    receivedAt: { type: "string", format: "date-time" },
    authenticated: {
      type: ["object", "null"],
      required: ["dkim", "arc"],
      properties: {
        dkim: {
          type: "array",
          items: { type: "string" },
          description: "Domains whose DKIM signature verifies on the message as it reached us.",
        },
        arc: {
          type: "array",
          items: { type: "string" },
          description:
            "Domains a trusted forwarder's ARC seal vouches for (their DKIM passed before it forwarded the message).",
        },
      },
      description:
        "Which domains the message proved it came from, checked for the forwarding inbox's mail; a login reads a forwarded message only when one of them is the site's domain. null: not checked (mail sent to one of our mailboxes directly).",
    },
    code: { type: ["string", "null"], description: "The verification code found in it." },
    link: { type: ["string", "null"], description: "The sign-in or confirmation link found in it." },
    text: { type: "string", description: "Only with include=body." },
    html: { type: "string", description: "Only with include=body." },
  },
};
const phoneNumber = {
  type: "object",
  required: ["id", "number", "label", "createdAt"],
  properties: {
    id: { type: "string", pattern: "^pn_" },
    number: { type: "string", description: "E.164" },
    label: { type: ["string", "null"] },
    createdAt: { type: "string", format: "date-time" },
  },
};

// Exhaustive by type: a new JOB_EVENT_TYPES entry does not compile until it is described here.
const JOB_EVENT_MEANINGS: Record<JobEventType, string> = {
  queued: "The job is in the queue (again, after a retry or an operator's replay).",
  started: "A worker took it; `attempt` counts from 1.",
  navigating: "The browser is opening the page; `origin` (the origin only: a path may hold an invite token).",
  form_found: "The login or signup form was found.",
  submitted: "The form was sent: from here on the job is never retried.",
  waiting_for_email: "Waiting for the site's mail (code, link, password); `address` is the inbox's address.",
  waiting_for_sms: "Waiting for the site's text message; `number` is the phone number.",
  verifying: "Reading the site's answer: signed in, refused, or asking for more.",
  needs_input:
    "Waiting for a person (the request allowed a hand-off): `input` says what for; answer with POST /jobs/{jobId}/input. Told again after a refused answer, with the site's words.",
  retrying: "A failed attempt is tried again (only before the form was sent); `code` is why.",
  succeeded: "Last event: a session was made (read it from GET /jobs/{jobId}); `credentialId` names the credential.",
  failed: "Last event: no session; `error` is the API's error.",
};

/** One step of a job (packages/contracts/src/job-events.ts), as the `data:` line of its Server-Sent Event. */
const jobEvent = {
  type: "object",
  required: ["type", "jobId", "at"],
  description:
    "Carries no secret: no password, code, cookie or session. Clients ignore types they do not know; more may come.",
  properties: {
    type: {
      type: "string",
      enum: JOB_EVENT_TYPES,
      description: JOB_EVENT_TYPES.map((t) => `\`${t}\`: ${JOB_EVENT_MEANINGS[t]}`).join(" "),
    },
    jobId: { type: "string", pattern: "^job_" },
    at: { type: "string", format: "date-time" },
    attempt: { type: "integer", minimum: 1 },
    origin: { type: "string" },
    address: { type: "string" },
    number: { type: "string", description: "E.164" },
    code: { type: "string", description: "`retrying`: the error code of the attempt that failed." },
    credentialId: { type: "string", pattern: "^cred_" },
    error: { $ref: "#/components/schemas/JobError" },
    input: { $ref: "#/components/schemas/InputRequest" },
  },
};

/**
 * The body of GET /jobs/{jobId}/events: Server-Sent Events, modelled as the sequence of its messages
 * (what OpenAPI 3.2 calls `itemSchema`); each `data` is one line of JSON, a JobEvent.
 */
const jobEventStream = {
  type: "array",
  items: {
    type: "object",
    required: ["id", "event", "data"],
    properties: {
      id: { type: "string", description: "Opaque position: send it back as `Last-Event-ID` to resume after it." },
      event: { type: "string", enum: JOB_EVENT_TYPES },
      data: {
        type: "string",
        contentMediaType: "application/json",
        contentSchema: { $ref: "#/components/schemas/JobEvent" },
      },
    },
  },
};

const health = {
  type: "object",
  required: ["ok"],
  properties: {
    ok: { type: "boolean" },
    database: { type: "boolean", description: "/readyz only: PostgreSQL answered." },
    redis: { type: "boolean", description: "/readyz only: Redis answered." },
  },
};

export const schemas = {
  LoginRequest: loginRequest,
  SignupRequest: signupRequest,
  SignupResult: signupResult,
  Session: sessionSchema,
  StoredCredentialSession: storedCredentialSession,
  Cookie: cookieSchema,
  Job: job,
  JobError: jobError,
  InputRequest: inputRequest,
  InputAnswer: inputAnswer,
  JobEvent: jobEvent,
  JobEventStream: jobEventStream,
  Error: errorBodySchema,
  MailboxRequest: mailboxRequest,
  Credential: credential,
  EntryLinkRequest: entryLinkRequest,
  EntryLink: entryLink,
  RefreshRequest: refreshRequest,
  VerifyRequest: verifyRequest,
  PasskeyEnrolRequest: passkeyEnrolRequest,
  PasskeyEnrolment: passkeyEnrolment,
  PasskeyImported: passkeyImported,
  PasskeyAdded: passkeyAdded,
  CredentialMethod: credentialMethod,
  WebhookRequest: webhookRequest,
  Webhook: webhook,
  ProxyRequest: proxyRequest,
  Proxy: proxy,
  Mailbox: mailbox,
  InboundMessage: inboundMessage,
  PhoneNumber: phoneNumber,
  Health: health,
};
