import { ERROR_CODES } from "./error-codes";
import { refreshRequestSchema, verifyRequestSchema } from "./credentials";
import { mailboxRequestSchema } from "./inboxes";
import { WEBHOOK_EVENTS, webhookRequestSchema } from "./webhooks";
import { loginRequestSchema } from "./login-request";
import { signupRequestSchema } from "./signup-request";

const cookie = {
  type: "object",
  required: ["name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite"],
  properties: {
    name: { type: "string" },
    value: { type: "string", description: "Secret: the session itself." },
    domain: { type: "string" },
    path: { type: "string" },
    expires: { type: "number", description: "Unix time in seconds; -1 for a session cookie." },
    httpOnly: { type: "boolean" },
    secure: { type: "boolean" },
    sameSite: { type: "string", enum: ["Strict", "Lax", "None"] },
  },
};

const session = {
  type: "object",
  required: ["cookies", "origins", "storageState"],
  properties: {
    cookies: { type: "array", items: { $ref: "#/components/schemas/Cookie" } },
    origins: { type: "array", items: { type: "string" }, description: "Origins the login visited." },
    storageState: {
      type: "object",
      description: "Playwright's storageState: `browser.newContext({ storageState })` loads it unchanged.",
      required: ["cookies", "origins"],
      properties: {
        cookies: { type: "array", items: { $ref: "#/components/schemas/Cookie" } },
        origins: {
          type: "array",
          items: {
            type: "object",
            required: ["origin", "localStorage"],
            properties: {
              origin: { type: "string" },
              localStorage: {
                type: "array",
                items: { type: "object", required: ["name", "value"], properties: { name: { type: "string" }, value: { type: "string" } } },
              },
              indexedDB: {
                type: "array",
                description:
                  "The origin's IndexedDB databases (client SDKs such as Firebase Auth keep their tokens there), as Playwright's " +
                  "`storageState({ indexedDB: true })` writes them; `newContext({ storageState })` restores them.",
                items: {
                  type: "object",
                  required: ["name", "version", "stores"],
                  properties: {
                    name: { type: "string" },
                    version: { type: "number" },
                    stores: {
                      type: "array",
                      items: {
                        type: "object",
                        required: ["name", "autoIncrement", "indexes", "records"],
                        properties: {
                          name: { type: "string" },
                          keyPath: { type: "string" },
                          keyPathArray: { type: "array", items: { type: "string" } },
                          autoIncrement: { type: "boolean" },
                          indexes: { type: "array", items: { type: "object" } },
                          records: {
                            type: "array",
                            items: { type: "object", properties: { key: {}, keyEncoded: {}, value: {}, valueEncoded: {} } },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const job = {
  type: "object",
  required: ["jobId", "status", "eventsUrl"],
  properties: {
    jobId: { type: "string", pattern: "^job_" },
    eventsUrl: { type: "string", description: "Its progress as Server-Sent Events: `/v1/jobs/{jobId}/events`." },
    status: { type: "string", enum: ["queued", "running", "succeeded", "failed"] },
    result: { $ref: "#/components/schemas/Session" },
    error: {
      type: "object",
      properties: { code: { type: "string" }, message: { type: "string" }, credentialId: { type: "string", description: "As in the error body." } },
    },
  },
};

const error = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "requestId"],
      properties: {
        code: { type: "string", enum: Object.keys(ERROR_CODES) },
        message: { type: "string" },
        requestId: { type: "string", pattern: "^req_" },
        credentialId: {
          type: "string",
          pattern: "^cred_",
          description: "A signup that failed after its form was sent: the stored credential that keeps the account and its password.",
        },
        details: {
          type: "array",
          items: { type: "object", required: ["field", "message"], properties: { field: { type: "string" }, message: { type: "string" } } },
        },
      },
    },
  },
};

function errorResponses(codes: Array<keyof typeof ERROR_CODES>) {
  const byStatus = new Map<number, Array<keyof typeof ERROR_CODES>>();
  for (const code of codes) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].meaning}`).join(" "),
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    ]),
  );
}

const { $id: _id, ...loginRequest } = loginRequestSchema;
const { $id: _mid, ...mailboxRequest } = mailboxRequestSchema;
const { $id: _rid, ...refreshRequest } = refreshRequestSchema;
const { $id: _vid, ...verifyRequest } = verifyRequestSchema;
// What refresh and verify answer: a login's session, with the stored credential it signed in with.
const storedCredentialSession = {
  "application/json": {
    schema: {
      allOf: [
        { $ref: "#/components/schemas/Session" },
        { type: "object", required: ["credentialId"], properties: { credentialId: { type: "string" }, expiresAt: { type: "string", format: "date-time" } } },
      ],
    },
  },
};
const { $id: _wid, ...webhookRequest } = webhookRequestSchema;
const { $id: _sid, ...signupRequest } = signupRequestSchema;
const signupResult = {
  allOf: [
    { $ref: "#/components/schemas/Session" },
    {
      type: "object",
      required: ["credentialId", "account"],
      properties: {
        credentialId: { type: "string", pattern: "^cred_", description: "The stored credential: POST /refresh logs in with it." },
        expiresAt: { type: "string", format: "date-time", description: "The latest persistent cookie's expiry; absent when all cookies are session cookies." },
        account: {
          type: "object",
          required: ["email", "username", "passwordGenerated"],
          properties: {
            email: { type: ["string", "null"] },
            username: { type: ["string", "null"], description: "As the site accepted it: a variant when the one asked for was taken." },
            passwordGenerated: { type: "boolean", description: "The service made up the password; it is stored encrypted and never shown." },
          },
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
  required: ["credentialId", "site", "loginPage", "loginUrl", "username", "collectionId", "createdAt", "lastLoginAt", "status", "lastError"],
  properties: {
    credentialId: { type: "string", pattern: "^cred_" },
    site: { type: "string", description: "Origin of the site." },
    loginPage: { type: "string", description: "Origin + path of the login page: with username and collection, what names the credential." },
    loginUrl: { type: "string" },
    username: { type: "string" },
    collectionId: { type: ["string", "null"] },
    createdAt: { type: "string", format: "date-time" },
    lastLoginAt: { type: ["string", "null"], format: "date-time" },
    status: { type: "string", enum: ["active", "failing", "pending", "pending_verification"] },
    lastError: { type: ["string", "null"], description: "Error code of the last failed login." },
  },
};

const mailbox = {
  type: "object",
  required: ["id", "address", "label", "forwarding", "createdAt"],
  properties: {
    id: { type: "string", pattern: "^mbx_" },
    address: { type: "string", description: "On the service's mail domain; use it as the account's email on the site." },
    label: { type: ["string", "null"] },
    forwarding: { type: "boolean", description: "The organization's forwarding inbox: forward your own mailbox here." },
    createdAt: { type: "string", format: "date-time" },
  },
};
const inboundMessage = {
  type: "object",
  required: ["id", "from", "subject", "recipient", "originalRecipients", "receivedAt", "code", "link"],
  properties: {
    id: { type: "string", pattern: "^msg_" },
    from: { type: "string" },
    subject: { type: "string" },
    recipient: { type: "string", description: "Our address it was delivered to, with any +tag." },
    originalRecipients: { type: "array", items: { type: "string" }, description: "Whom a forwarded message was first sent to (from its headers); [] for mail sent to us directly." },
    receivedAt: { type: "string", format: "date-time" },
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
const json = (ref: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } });
const idParam = { name: "id", in: "path", required: true, schema: { type: "string" } };

/** A 200 answer `{"<key>": [<schema>…], …extra}`, the shape of every list endpoint. */
function listOf(key: string, schema: string, description: string, extra: Record<string, object> = {}) {
  return {
    description,
    content: {
      "application/json": {
        schema: { type: "object", required: [key], properties: { [key]: { type: "array", items: { $ref: `#/components/schemas/${schema}` } }, ...extra } },
      },
    },
  };
}

/** CRUD of one kind of inbox (mailboxes, phone numbers). */
function inboxPaths(path: string, listKey: string, schema: string, request: string, what: string) {
  return {
    [path]: {
      post: {
        operationId: `create${schema}`,
        summary: `Create a ${what} for your organization`,
        requestBody: { required: true, content: json(request) },
        responses: {
          "201": { description: `The ${what}; \`Location\` names it.`, content: json(schema) },
          ...errorResponses(["invalid_request", "invalid_json", "unauthorized", "conflict", "rate_limited", "service_unavailable"]),
        },
      },
      get: {
        operationId: `list${schema}s`,
        summary: `Your organization's ${what}s`,
        responses: {
          "200": listOf(listKey, schema, `{"${listKey}": [...]}`),
          ...errorResponses(["unauthorized", "rate_limited"]),
        },
      },
    },
    [`${path}/{id}`]: {
      delete: {
        operationId: `delete${schema}`,
        summary: `Delete a ${what} and the messages it received`,
        parameters: [idParam],
        responses: { "204": { description: "Deleted." }, ...errorResponses(["unauthorized", "not_found", "rate_limited"]) },
      },
    },
  };
}

/** The public API as OpenAPI 3.1, built from the same schemas and error table the gateway enforces. */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "authsvc — browser session authentication",
    version: "1.0.0",
    description:
      "Send a login page URL and credentials; the service logs in with a real browser and returns the session. " +
      "Every /v1 endpoint needs `Authorization: Bearer pk_…`. Errors share one shape with a stable `code`.",
  },
  servers: [{ url: "/v1" }],
  security: [{ apiKey: [] }],
  paths: {
    "/login": {
      post: {
        operationId: "login",
        summary: "Log in to a website and return its session",
        description:
          "Answers from the session cache when `useCache` is true (default) and a valid session exists for the same org, " +
          "collection, site origin and credentials; otherwise logs in with a browser. Identical concurrent requests share one login. " +
          "Waits up to the server's limit (or `Prefer: wait=N`); past it, answers 202 with a job to poll. `Prefer: respond-async` answers 202 at once.",
        parameters: [
          {
            name: "Prefer",
            in: "header",
            required: false,
            schema: { type: "string", examples: ["respond-async", "wait=10"] },
          },
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: "A retried request with the same key and body gets the first answer (or joins its job) for 24 hours; the same key with another body is `idempotency_mismatch` (422).",
            schema: { type: "string", minLength: 1, maxLength: 255 },
          },
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/LoginRequest" } } } },
        responses: {
          "200": {
            description: "Signed in. `X-Auth-Cache: hit|miss` tells whether the browser ran; `X-Job-Id` names the job when it did.",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Session" } } },
          },
          "202": {
            description: "Still running; poll the `Location` (GET /jobs/{jobId}).",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Job" } } },
          },
          ...errorResponses([
            "invalid_request", "invalid_json", "unauthorized", "payload_too_large", "unsupported_media_type",
            "invalid_credentials", "form_not_found", "captcha_blocked", "account_locked", "mfa_required", "verification_failed", "provider_blocked",
            "consent_denied", "account_not_linked", "login_unconfirmed", "target_not_allowed", "rate_limited", "internal_error", "method_not_supported", "target_unreachable", "service_unavailable", "timeout",
          ]),
        },
      },
    },
    "/signup": {
      post: {
        operationId: "signup",
        summary: "Create an account on a website, confirm its email, and return the signed-in session",
        description:
          "Finds the signup form, fills email, username, password (generated to the site's rules when none is sent), its confirmation, " +
          "name fields and required boxes, submits, completes the confirmation link or code the site mails to one of your mailboxes, " +
          "and logs in when the site does not sign the new user in by itself. The credential is stored for POST /refresh. " +
          "`cred.email` may be the caller's own address: a site that mails no confirmation just works; one that mails it there ends " +
          "`verification_pending` (422) with `credentialId`, the account's password kept (status `pending_verification`). " +
          "Any failure after the form was sent names in `credentialId` the credential that keeps the account's password. " +
          "`signup_method: invitation` needs `invite_token`; `oauth` signs up through the provider's button with the provider account in `cred` (email, password, totpSecret), names its provider (`provider` or `cred.provider`), and fills what the site still asks (`cred.username`, `cred.name`, terms). Waits like a login; past the wait, 202 with a job.",
        parameters: [{ name: "Prefer", in: "header", required: false, schema: { type: "string", examples: ["respond-async", "wait=10"] } }],
        requestBody: { required: true, content: json("SignupRequest") },
        responses: {
          "201": { description: "Registered and signed in. `Location` names the credential.", content: json("SignupResult") },
          "202": { description: "Still running; poll the `Location` (GET /jobs/{jobId}).", content: json("Job") },
          ...errorResponses([
            "invalid_request", "invalid_json", "unauthorized", "payload_too_large", "unsupported_media_type", "account_exists",
            "signup_rejected", "form_not_found", "captcha_blocked", "verification_failed", "verification_pending", "login_unconfirmed", "target_not_allowed",
            "rate_limited", "internal_error", "method_not_supported", "target_unreachable", "service_unavailable", "timeout",
          ]),
        },
      },
    },
    "/jobs/{jobId}": {
      get: {
        operationId: "getJob",
        summary: "A login job of your organization, with its session once it succeeded",
        parameters: [{ name: "jobId", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": { description: "The job.", content: { "application/json": { schema: { $ref: "#/components/schemas/Job" } } } },
          ...errorResponses(["unauthorized", "not_found", "rate_limited", "service_unavailable"]),
        },
      },
    },
    ...inboxPaths("/mailboxes", "mailboxes", "Mailbox", "MailboxRequest", "mailbox"),
    "/mailboxes/forwarding": {
      get: {
        operationId: "getForwardingMailbox",
        summary: "Your organization's forwarding inbox, created on the first call: forward your own mailbox (Gmail, Workspace) to its address",
        responses: {
          "200": { description: "The forwarding inbox.", content: json("Mailbox") },
          ...errorResponses(["unauthorized", "rate_limited", "service_unavailable"]),
        },
      },
    },
    "/mailboxes/{id}/messages": {
      get: {
        operationId: "listMailboxMessages",
        summary: "Messages a mailbox received, newest first, with the code and link found in each; bodies only with include=body",
        parameters: [
          idParam,
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
          { name: "offset", in: "query", schema: { type: "integer", minimum: 0, default: 0 } },
          { name: "include", in: "query", schema: { type: "string", enum: ["body"] } },
        ],
        responses: {
          "200": listOf("messages", "InboundMessage", '{"messages": [...], "next": "/v1/mailboxes/…/messages?offset=…" | null}', { next: { type: ["string", "null"] } }),
          ...errorResponses(["invalid_request", "unauthorized", "not_found", "rate_limited"]),
        },
      },
    },
    "/phone-numbers": {
      get: {
        operationId: "listPhoneNumbers",
        summary: "Phone numbers the operator assigned to your organization (their SMS reach the inbound webhook)",
        responses: {
          "200": listOf("phoneNumbers", "PhoneNumber", '{"phoneNumbers": [...]}'),
          ...errorResponses(["unauthorized", "rate_limited"]),
        },
      },
    },
    "/credentials": {
      get: {
        operationId: "listCredentials",
        summary: "Your organization's stored credentials, newest first (metadata only, never a secret)",
        parameters: [{ name: "before", in: "query", required: false, schema: { type: "string" }, description: "Page on: the `next` link of the previous page." }],
        responses: {
          "200": listOf("credentials", "Credential", '{"credentials": [...], "next": link or null} (100 a page)', { next: { type: ["string", "null"] } }),
          ...errorResponses(["invalid_request", "unauthorized", "rate_limited"]),
        },
      },
    },
    "/credentials/{id}": {
      get: {
        operationId: "getCredential",
        summary: "One stored credential",
        parameters: [idParam],
        responses: { "200": { description: "The credential.", content: json("Credential") }, ...errorResponses(["unauthorized", "not_found", "rate_limited"]) },
      },
      delete: {
        operationId: "deleteCredential",
        summary: "Delete a credential, its stored secret and its sessions (cached ones included)",
        parameters: [idParam],
        responses: { "204": { description: "Deleted." }, ...errorResponses(["unauthorized", "not_found", "rate_limited"]) },
      },
    },
    "/credentials/{id}/verify": {
      post: {
        operationId: "verifyCredential",
        summary: "Confirm the email of an account a signup left pending, then sign in with it",
        description:
          "For a credential a signup kept without signing in (status `pending_verification`, or `pending` after a refused confirmation). " +
          "`link`: the confirmation link the caller read in their own mailbox, opened in the browser first (the target rules apply to it); " +
          "`code`: the confirmation code, typed where the site asks for it after the password; an empty body: the confirmation link that reached " +
          "the organization's inbox for that address since the signup (its mailbox, or the forwarding inbox). Then the ordinary login with the stored " +
          "secret; on success the credential is `active` and the answer is a refresh's. A refused link or code is `verification_failed`; no link in the inbox " +
          "yet is `verification_pending`; a credential that already signed in, or keeps no secret, is `conflict`.",
        parameters: [idParam],
        requestBody: { required: false, content: json("VerifyRequest") },
        responses: {
          "200": {
            description: "Confirmed and signed in.",
            content: storedCredentialSession,
          },
          "202": { description: "Still running; poll the `Location`.", content: json("Job") },
          ...errorResponses([
            "invalid_request", "invalid_json", "unauthorized", "not_found", "conflict", "invalid_credentials", "verification_failed", "verification_pending",
            "login_unconfirmed", "target_not_allowed", "rate_limited", "target_unreachable", "service_unavailable", "timeout",
          ]),
        },
      },
    },
    "/refresh": {
      post: {
        operationId: "refresh",
        summary: "Log in again with a stored credential and replace its cached session",
        description:
          "Names the credential by `credentialId`, or by `domain`, `username` and `collectionId` as the login gave them. " +
          "`domain` is matched by login page (origin + path); a bare origin names the only credential of that username on the site, " +
          "and is `conflict` (409) when the username has credentials on several of its login pages. " +
          "Logs in with the secret of its last successful login (its TOTP secret or inbox too) and answers like a login, plus `credentialId` and `expiresAt`.",
        requestBody: { required: true, content: json("RefreshRequest") },
        responses: {
          "200": {
            description: "Signed in again.",
            content: storedCredentialSession,
          },
          "202": { description: "Still running; poll the `Location`.", content: json("Job") },
          ...errorResponses([
            "invalid_request", "invalid_json", "unauthorized", "not_found", "conflict", "no_stored_secret", "invalid_credentials", "mfa_required",
            "verification_failed", "provider_blocked", "consent_denied", "account_not_linked", "login_unconfirmed", "rate_limited", "target_unreachable", "service_unavailable", "timeout",
          ]),
        },
      },
    },
    "/webhooks": {
      post: {
        operationId: "createWebhook",
        summary: "Register an endpoint for events (session.refreshed, session.expired, credential.failed)",
        description:
          "Deliveries are POSTs of a JSON event, signed `X-Authsvc-Signature: t=<unix>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">`, " +
          "retried with backoff on 5xx, 408, 429 and network faults. The URL must resolve to a public address.",
        requestBody: { required: true, content: json("WebhookRequest") },
        responses: {
          "201": { description: "Registered; the answer carries the signing secret, shown once.", content: json("Webhook") },
          ...errorResponses(["invalid_request", "invalid_json", "unauthorized", "target_not_allowed", "rate_limited"]),
        },
      },
      get: {
        operationId: "listWebhooks",
        summary: "Your organization's webhooks (without secrets)",
        responses: {
          "200": listOf("webhooks", "Webhook", '{"webhooks": [...]}'),
          ...errorResponses(["unauthorized", "rate_limited"]),
        },
      },
    },
    "/webhooks/{id}": {
      delete: {
        operationId: "deleteWebhook",
        summary: "Stop delivering to an endpoint",
        parameters: [idParam],
        responses: { "204": { description: "Deleted." }, ...errorResponses(["unauthorized", "not_found", "rate_limited"]) },
      },
    },
    "/inbound/sms": {
      post: {
        operationId: "inboundSms",
        summary: "Twilio's incoming-SMS webhook (no API key: X-Twilio-Signature)",
        security: [],
        parameters: [{ name: "X-Twilio-Signature", in: "header", required: true, schema: { type: "string" } }],
        requestBody: {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: { type: "object", required: ["To", "Body"], properties: { To: { type: "string" }, From: { type: "string" }, Body: { type: "string" } } },
            },
          },
        },
        responses: {
          "200": { description: "Stored; empty TwiML.", content: { "text/xml": { schema: { type: "string" } } } },
          ...errorResponses(["invalid_request", "unauthorized", "not_found", "unsupported_media_type", "service_unavailable"]),
        },
      },
    },
  },
  components: {
    securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An organization's API key, `pk_…`." } },
    schemas: {
      LoginRequest: loginRequest,
      SignupRequest: signupRequest,
      SignupResult: signupResult,
      Session: session,
      Cookie: cookie,
      Job: job,
      Error: error,
      MailboxRequest: mailboxRequest,
      Credential: credential,
      RefreshRequest: refreshRequest,
      VerifyRequest: verifyRequest,
      WebhookRequest: webhookRequest,
      Webhook: webhook,
      Mailbox: mailbox,
      InboundMessage: inboundMessage,
      PhoneNumber: phoneNumber,
    },
  },
} as const;
