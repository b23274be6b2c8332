import { failuresOf } from "./job-failure-codes";
import * as ex from "./openapi-examples";
import { publicPaths } from "./openapi-public-paths";
import { headers, json, keyed, listOf, paramRef, parameters, rated, v1Errors } from "./openapi-responses";
import { schemas } from "./openapi-schemas";
import { credentialListQuerySchema } from "./credentials";

/** 202: the browser job outlived the wait (or `Prefer: respond-async`); where to poll it and where it streams. */
const stillRunning = {
  description:
    'Still running: poll the `Location` (GET /jobs/{jobId}) or follow its progress at the `Link` rel="monitor" (GET /jobs/{jobId}/events).',
  headers: keyed("Location", "X-Job-Id", "Link"),
  content: json("Job", ex.pendingJob),
};

/** How a login job can end (login, refresh, verify, passkeys: the same browser login), target check included. */
const LOGIN_FAILURES = failuresOf("login");
/** How a signup job can end (an OAuth signup meets the provider's walls too). */
const SIGNUP_FAILURES = failuresOf("signup");

/** The public API as OpenAPI 3.1, built from the same schemas and error table the gateway enforces. */
export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "authsvc — browser session authentication",
    version: "1.0.0",
    description:
      "Send a login page URL and credentials; the service logs in with a real browser and returns the session. " +
      "Every /v1 endpoint needs `Authorization: Bearer pk_…`. Errors share one shape with a stable `code`. " +
      "A login, signup, refresh or verify that outlives the wait answers 202 with a job: its progress streams as Server-Sent Events " +
      "(GET /jobs/{jobId}/events), its answer is read at GET /jobs/{jobId}. POSTs take an `Idempotency-Key` so retries never log in twice.",
  },
  servers: [{ url: "/v1", description: "The API, on the host that serves this document." }],
  security: [{ apiKey: [] }],
  tags: [
    {
      name: "Sessions",
      description: "Log in, sign up and refresh: a real browser signs in and the session comes back.",
    },
    { name: "Jobs", description: "Browser runs that outlived the wait: their answer and their progress." },
    { name: "Credentials", description: "Credentials stored by logins and signups (metadata only, never a secret)." },
    { name: "Inboxes", description: "Mailboxes and phone numbers that receive the codes and links sites send." },
    {
      name: "Webhooks",
      description: "Endpoints the service calls when a session is refreshed or expires, or a credential fails.",
    },
    {
      name: "Proxies",
      description: "Egress proxies of your organization: logins leave through them, and each credential keeps its own.",
    },
    { name: "Service", description: "Health, readiness and this description: public, no API key." },
  ],
  paths: {
    "/login": {
      post: {
        operationId: "login",
        tags: ["Sessions"],
        summary: "Log in to a website and return its session",
        description:
          "Answers from the session cache when `useCache` is true (default) and a valid session exists for the same org, " +
          "collection, site origin and credentials; otherwise logs in with a browser. Identical concurrent requests share one login. " +
          "Waits up to the server's limit (or `Prefer: wait=N`); past it, answers 202 with a job to poll. `Prefer: respond-async` answers 202 at once.",
        parameters: [paramRef("Prefer"), paramRef("IdempotencyKey")],
        requestBody: { required: true, content: json("LoginRequest", ex.loginRequests) },
        responses: {
          "200": {
            description:
              "Signed in. `X-Auth-Cache: hit|miss` tells whether the browser ran; `X-Job-Id` names the job when it did.",
            headers: keyed("X-Auth-Cache", "X-Job-Id"),
            content: json("Session", ex.session),
          },
          "202": stillRunning,
          ...v1Errors([...LOGIN_FAILURES, "method_not_supported"], { post: true, idempotent: true, job: true }),
        },
      },
    },
    "/signup": {
      post: {
        operationId: "signup",
        tags: ["Sessions"],
        summary: "Create an account on a website, confirm its email, and return the signed-in session",
        description:
          "Finds the signup form, fills email, username, password (generated to the site's rules when none is sent), its confirmation, " +
          "name fields and required boxes, submits, completes the confirmation link or code the site mails to one of your mailboxes, " +
          "and logs in when the site does not sign the new user in by itself. The credential is stored for POST /refresh. " +
          "`cred.email` may be the caller's own address: a site that mails no confirmation just works; one that mails it there ends " +
          "`verification_pending` (422) with `credentialId`, the account's password kept (status `pending_verification`). " +
          "Any failure after the form was sent names in `credentialId` the credential that keeps the account's password. " +
          "`signup_method: invitation` needs `invite_token`; `oauth` signs up through the provider's button with the provider account in `cred` (email, password, totpSecret), names its provider (`provider` or `cred.provider`), and fills what the site still asks (`cred.username`, `cred.name`, terms). Waits like a login; past the wait, 202 with a job.",
        parameters: [paramRef("Prefer"), paramRef("IdempotencyKey")],
        requestBody: { required: true, content: json("SignupRequest", ex.signupRequest) },
        responses: {
          "201": {
            description: "Registered and signed in. `Location` names the credential.",
            headers: keyed("Location", "X-Job-Id"),
            content: json("SignupResult", ex.signupResult),
          },
          "202": stillRunning,
          ...v1Errors(SIGNUP_FAILURES, { post: true, idempotent: true, job: true }),
        },
      },
    },
    "/refresh": {
      post: {
        operationId: "refresh",
        tags: ["Sessions"],
        summary: "Log in again with a stored credential and replace its cached session",
        description:
          "Names the credential by `credentialId`, or by `domain`, `username` and `collectionId` as the login gave them. " +
          "`domain` is matched by login page (origin + path); a bare origin names the only credential of that username on the site, " +
          "and is `conflict` (409) when the username has credentials on several of its login pages. " +
          "Logs in with the secret of its last successful login (its TOTP secret or inbox too) and answers like a login, plus `credentialId` and `expiresAt`.",
        parameters: [paramRef("Prefer"), paramRef("IdempotencyKey")],
        requestBody: {
          required: true,
          content: json("RefreshRequest", {
            byId: { summary: "By credential id", value: { credentialId: "cred_7Hc2VnQ9pL4tXw8bZr1mKs" } },
            byIdentity: {
              summary: "As the login named it",
              value: { domain: "https://app.example.com/login", username: "ada@example.com", collectionId: "team-a" },
            },
          }),
        },
        responses: {
          "200": {
            description: "Signed in again.",
            headers: keyed("X-Job-Id"),
            content: json("StoredCredentialSession", ex.storedCredentialSession),
          },
          "202": stillRunning,
          ...v1Errors(["not_found", "conflict", "no_stored_secret", ...LOGIN_FAILURES], {
            post: true,
            idempotent: true,
            job: true,
          }),
        },
      },
    },
    "/jobs/{jobId}": {
      get: {
        operationId: "getJob",
        tags: ["Jobs"],
        summary: "A login job of your organization, with its session once it succeeded",
        description:
          "`succeeded`: `result` is the body the 200/201 answer would have had. `failed`: `error` is the error the synchronous call would have raised " +
          "(its HTTP status is the code's, see the Error schema).",
        parameters: [paramRef("JobId")],
        responses: {
          "200": { description: "The job.", headers: rated(), content: json("Job", ex.jobs) },
          ...v1Errors(["not_found"]),
        },
      },
    },
    "/jobs/{jobId}/input": {
      post: {
        operationId: "answerJobInput",
        tags: ["Jobs"],
        summary: "Answer what a job in `needs_input` waits for: a code, a choice, an answer, or `{}` (look again)",
        description:
          "Only for a job of your organization whose status is `needs_input` (its request sent `allowHandoff: true`). The job goes on with the same page: " +
          "it types the code (or takes the choice), then reads the site's answer as always; a refused code puts it back in `needs_input` with the site's words " +
          "(at most 3 answers, then `verification_failed`). Its end is the engine's verdict, never the answer's. Answered **202** with the job; follow it at " +
          "GET /jobs/{jobId} or its events. The answer is encrypted until the worker takes it and is never logged or shown again.",
        parameters: [paramRef("JobId")],
        requestBody: {
          required: false,
          content: json("InputAnswer", {
            code: { summary: "The one-time code", value: { code: "482913" } },
            lookAgain: { summary: "Approved elsewhere: look again", value: {} },
          }),
        },
        responses: {
          "202": { description: "Taken: the job goes on.", headers: rated(), content: json("Job", ex.pendingJob) },
          ...v1Errors(["not_found", "not_waiting_for_input"], { post: true }),
        },
      },
    },
    "/jobs/{jobId}/events": {
      get: {
        operationId: "getJobEvents",
        tags: ["Jobs"],
        summary: "Follow a job's progress as Server-Sent Events",
        description:
          "`text/event-stream`: each event is `id: <position>`, `event: <type>`, `data: <JobEvent as one line of JSON>` and a blank line; " +
          "comment lines (`: keep-alive`) every 15 s are to be ignored. A client that connects late gets every event so far, then the rest; " +
          "the response ends after `succeeded` or `failed`. Reconnecting with `Last-Event-ID` resumes after that event (an id this API never sent is 400). " +
          "Any gateway replica serves any job's stream; a stream cut short (the gateway shutting down) is resumed the same way. No event carries a secret " +
          "or the session: after `succeeded`, read GET /jobs/{jobId} for it.",
        parameters: [paramRef("JobId"), paramRef("LastEventId")],
        responses: {
          "200": {
            description:
              "The stream, until the job's last event. On the wire:\n\n```\n" + ex.eventStreamWire + "…\n```",
            headers: rated(),
            content: {
              "text/event-stream": { schema: { $ref: "#/components/schemas/JobEventStream" }, example: ex.eventStream },
            },
          },
          ...v1Errors(["invalid_request", "not_found"]),
        },
      },
    },
    "/credentials": {
      get: {
        operationId: "listCredentials",
        tags: ["Credentials"],
        summary: "Your organization's stored credentials, newest first (metadata only, never a secret)",
        description:
          "Newest first by creation time, 100 a page; `next` is the link to the following page (it keeps the filters), null on the last. " +
          "A `before` that names no credential of the organization (removed since that page) is 400: start again from the first page.",
        parameters: [
          {
            name: "site",
            in: "query",
            required: false,
            schema: credentialListQuerySchema.properties.site,
            description:
              "Only this site's credentials: an origin (`https://app.example.com`); of a longer URL, its origin.",
          },
          {
            name: "username",
            in: "query",
            required: false,
            schema: credentialListQuerySchema.properties.username,
            description: "Only credentials of this username (exact).",
          },
          {
            name: "before",
            in: "query",
            required: false,
            schema: credentialListQuerySchema.properties.before,
            description: "Page on: the `next` link of the previous page.",
          },
        ],
        responses: {
          "200": listOf(
            "credentials",
            "Credential",
            '{"credentials": [...], "next": link or null} (100 a page)',
            ex.credential,
            { next: { type: ["string", "null"] } },
          ),
          ...v1Errors(["invalid_request"]),
        },
      },
    },
    "/credentials/entry-links": {
      post: {
        operationId: "createEntryLink",
        tags: ["Credentials"],
        summary: "A link where the end user types their own credentials for a site",
        description:
          "Answers a hosted page (`url`, on the dashboard; no API key needed) to send the end user to. They type their username and password (and " +
          "an authenticator's secret if they use one); the service signs in once with them — a step only they can do (a code, an approval, a CAPTCHA) " +
          "is handed to them on the hand-off page — stores the credential encrypted, and tells the organization by the `credential.created` webhook " +
          "and on `GET /v1/entry-links/{id}` (the `Location`). The caller never sees the password. A sign-in the site refuses shows them its words and lets " +
          "them try again, at most `maxTries` times in all. The link is spent once a credential is stored, and ends at `expiresAt` " +
          "(`expiresIn` seconds, default 86400, at most 604800). `domain` is checked as a target now and again when the sign-in runs. " +
          "Needs DASHBOARD_URL (501 `method_not_supported` without it).",
        parameters: [paramRef("IdempotencyKey")],
        requestBody: {
          required: true,
          content: json("EntryLinkRequest", {
            link: {
              summary: "A link for one site",
              value: { domain: "https://app.example.com/login", collectionId: "team-a" },
            },
          }),
        },
        responses: {
          "201": {
            description: "The link; `Location` names it.",
            headers: keyed("Location"),
            content: json("EntryLink", ex.entryLink),
          },
          ...v1Errors(["target_not_allowed", "method_not_supported"], { post: true, idempotent: true }),
        },
      },
    },
    "/entry-links/{id}": {
      get: {
        operationId: "getEntryLink",
        tags: ["Credentials"],
        summary:
          "An entry link's state: open, validating, needs_input, created (with the credential), failed or expired",
        parameters: [paramRef("EntryLinkId")],
        responses: {
          "200": { description: "The link.", headers: rated(), content: json("EntryLink", ex.entryLinkCreated) },
          ...v1Errors(["not_found"]),
        },
      },
    },
    "/credentials/{id}": {
      get: {
        operationId: "getCredential",
        tags: ["Credentials"],
        summary: "One stored credential",
        parameters: [paramRef("CredentialId")],
        responses: {
          "200": { description: "The credential.", headers: rated(), content: json("Credential", ex.credential) },
          ...v1Errors(["not_found"]),
        },
      },
      delete: {
        operationId: "deleteCredential",
        tags: ["Credentials"],
        summary: "Delete a credential, its stored secret and its sessions (cached ones included)",
        parameters: [paramRef("CredentialId")],
        responses: { "204": { description: "Deleted.", headers: rated() }, ...v1Errors(["not_found"]) },
      },
    },
    "/credentials/{id}/device": {
      delete: {
        operationId: "forgetCredentialDevice",
        tags: ["Credentials"],
        summary: "Forget the site's memory of the credential's browser (its remembered device)",
        description:
          'The service keeps the long-lived cookies a site set to trust the credential\'s browser (after a second factor, or "remember me"), encrypted, ' +
          "and brings them into the credential's next login or refresh, so the site need not ask what it asks a new device. This forgets them: the next " +
          "login is a new device's, and the site may ask its second factor again. The credential's sessions stay.",
        parameters: [paramRef("CredentialId")],
        responses: {
          "204": { description: "Forgotten (also when none was kept).", headers: rated() },
          ...v1Errors(["not_found"]),
        },
      },
    },
    "/credentials/{id}/passkeys": {
      post: {
        operationId: "enrolPasskey",
        tags: ["Credentials"],
        summary: "Add a passkey to the credential's account on its site, or import one you hold",
        description:
          "Signs in with the credential's stored secret (as a refresh does, with its second factor, or through its provider), opens the site's page where passkeys are added " +
          '(`settingsUrl`, or found by the words of the site\'s links — "Security", "Passkeys", "Settings" — in the languages the engine reads), ' +
          'clicks "Add a passkey" and lets the browser\'s authenticator make it (user verification satisfied). It counts once the site took it and it signed in once, in a browser of its own. The ' +
          "private key, credential id, user handle and sign counter are stored encrypted with the credential, never returned or logged; " +
          "`login_method: passkey` and refreshes sign in with it from then on, sending no password. The answer is the session of that sign-in, with the " +
          "passkey. `passkey_not_offered`: no page offers to add one; `passkey_rejected`: the site turned it down, or the new passkey did not sign in; " +
          "`no_stored_secret`: the credential never signed in.\n\n" +
          '**Import** (`{"import": …}`, alone): a passkey you already hold — its fields (`credentialId`, `privateKey`, `rpId`, `userHandle`, `signCount`), or `cxf`, a FIDO ' +
          "Credential Exchange Format passkey credential or an item holding one — is stored the same way, sealed, with no browser run: **201** `{passkey, credentialId}`. " +
          "Its key must be ES256 (ECDSA P-256), EdDSA (Ed25519) or RS256 (RSA, 2048 bits or more), as PKCS#8 (base64url DER, or PEM) or a private JWK; its `rpId` the " +
          "credential's login page host or a parent domain of it within its registrable domain. Anything else is 400 `invalid_request` whose `details` name the field " +
          "(`/import/privateKey`, `/import/cxf/rpId`, …); the key is never echoed. The same passkey (credential id), or another of the same account of the site (user handle), " +
          "again is 409 `conflict` naming the passkey held: delete it first to replace it. The site is first asked for it by the next `login_method: passkey` login " +
          "(`passkey_rejected` if it does not know it).",
        parameters: [paramRef("CredentialId"), paramRef("Prefer"), paramRef("IdempotencyKey")],
        requestBody: {
          required: false,
          content: json("PasskeyEnrolRequest", {
            found: { summary: "Found from the signed-in page", value: {} },
            given: {
              summary: "At the site's security settings",
              value: { settingsUrl: "https://app.example.com/settings/security" },
            },
            imported: { summary: "Import a passkey you hold, by its fields", value: ex.passkeyImportFields },
            cxf: { summary: "Import a Credential Exchange Format item's passkey", value: ex.passkeyImportCxf },
          }),
        },
        responses: {
          "201": {
            description:
              "Added, and signed in (an enrolment: the sign-in's session and the passkey); or imported (the passkey, no session).",
            headers: keyed("X-Job-Id", "Location"),
            content: json("PasskeyAdded", {
              enrolled: { summary: "Added on the site", value: ex.passkeyEnrolment },
              imported: { summary: "Imported", value: ex.passkeyImported },
            }),
          },
          "202": stillRunning,
          ...v1Errors(["not_found", "no_stored_secret", ...LOGIN_FAILURES], {
            post: true,
            idempotent: true,
            job: true,
          }),
        },
      },
    },
    "/credentials/{id}/passkeys/{passkeyId}": {
      delete: {
        operationId: "deletePasskey",
        tags: ["Credentials"],
        summary: "Forget one of the credential's passkeys",
        description:
          "The service forgets the passkey (its key is deleted); the site still lists it until it is removed there too. Refreshes use the password again once the credential holds no passkey.",
        parameters: [paramRef("CredentialId"), paramRef("PasskeyId")],
        responses: { "204": { description: "Forgotten.", headers: rated() }, ...v1Errors(["not_found"]) },
      },
    },
    "/credentials/{id}/verify": {
      post: {
        operationId: "verifyCredential",
        tags: ["Credentials"],
        summary: "Confirm the email of an account a signup left pending, then sign in with it",
        description:
          "For a credential a signup kept without signing in (status `pending_verification`, or `pending` after a refused confirmation). " +
          "`link`: the confirmation link the caller read in their own mailbox, opened in the browser first (the target rules apply to it); " +
          "`code`: the confirmation code, typed where the site asks for it after the password; an empty body (`{}`): the confirmation link that reached " +
          "the organization's inbox for that address since the signup (its mailbox, or the forwarding inbox). Then the ordinary login with the stored " +
          "secret; on success the credential is `active` and the answer is a refresh's. A refused link or code is `verification_failed`; no link in the inbox " +
          "yet is `verification_pending`; a credential that already signed in, or keeps no secret, is `conflict`.",
        parameters: [paramRef("CredentialId"), paramRef("Prefer"), paramRef("IdempotencyKey")],
        requestBody: {
          required: false,
          content: json("VerifyRequest", {
            link: {
              summary: "The link from your own mailbox",
              value: { link: "https://app.example.com/confirm?token=example-token" },
            },
            code: { summary: "The code from your own mailbox", value: { code: "482913" } },
            inbox: { summary: "Whatever reached the organization's inbox", value: {} },
          }),
        },
        responses: {
          "200": {
            description: "Confirmed and signed in.",
            headers: keyed("X-Job-Id"),
            content: json("StoredCredentialSession", ex.storedCredentialSession),
          },
          "202": stillRunning,
          ...v1Errors(["not_found", "conflict", "verification_pending", ...LOGIN_FAILURES], {
            post: true,
            idempotent: true,
            job: true,
          }),
        },
      },
    },
    "/mailboxes": {
      post: {
        operationId: "createMailbox",
        tags: ["Inboxes"],
        summary: "Create a mailbox for your organization",
        parameters: [paramRef("IdempotencyKey")],
        requestBody: {
          required: true,
          content: json("MailboxRequest", { localPart: "agent-7", label: "CRM signups" }),
        },
        responses: {
          "201": {
            description: "The mailbox; `Location` names it.",
            headers: keyed("Location"),
            content: json("Mailbox", ex.mailbox),
          },
          ...v1Errors(["conflict"], { post: true, idempotent: true }),
        },
      },
      get: {
        operationId: "listMailboxes",
        tags: ["Inboxes"],
        summary: "Your organization's mailboxes",
        responses: { "200": listOf("mailboxes", "Mailbox", '{"mailboxes": [...]}', ex.mailbox), ...v1Errors([]) },
      },
    },
    "/mailboxes/forwarding": {
      get: {
        operationId: "getForwardingMailbox",
        tags: ["Inboxes"],
        summary:
          "Your organization's forwarding inbox, created on the first call: forward your own mailbox (Gmail, Workspace) to its address",
        responses: {
          "200": {
            description: "The forwarding inbox.",
            headers: rated(),
            content: json("Mailbox", ex.forwardingMailbox),
          },
          ...v1Errors([]),
        },
      },
    },
    "/mailboxes/{id}": {
      get: {
        operationId: "getMailbox",
        tags: ["Inboxes"],
        summary: "One mailbox",
        parameters: [paramRef("MailboxId")],
        responses: {
          "200": { description: "The mailbox.", headers: rated(), content: json("Mailbox", ex.mailbox) },
          ...v1Errors(["not_found"]),
        },
      },
      delete: {
        operationId: "deleteMailbox",
        tags: ["Inboxes"],
        summary: "Delete a mailbox and the messages it received",
        parameters: [paramRef("MailboxId")],
        responses: { "204": { description: "Deleted.", headers: rated() }, ...v1Errors(["not_found"]) },
      },
    },
    "/mailboxes/{id}/messages": {
      get: {
        operationId: "listMailboxMessages",
        tags: ["Inboxes"],
        summary:
          "Messages a mailbox received, newest first, with the code and link found in each; bodies only with include=body",
        parameters: [
          paramRef("MailboxId"),
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
          { name: "offset", in: "query", schema: { type: "integer", minimum: 0, default: 0 } },
          { name: "include", in: "query", schema: { type: "string", enum: ["body"] } },
        ],
        responses: {
          "200": listOf(
            "messages",
            "InboundMessage",
            '{"messages": [...], "next": "/v1/mailboxes/…/messages?offset=…" | null}',
            ex.message,
            { next: { type: ["string", "null"] } },
          ),
          ...v1Errors(["invalid_request", "not_found"]),
        },
      },
    },
    "/phone-numbers": {
      get: {
        operationId: "listPhoneNumbers",
        tags: ["Inboxes"],
        summary: "Phone numbers the operator assigned to your organization (their SMS reach the inbound webhook)",
        responses: {
          "200": listOf("phoneNumbers", "PhoneNumber", '{"phoneNumbers": [...]}', ex.phoneNumber),
          ...v1Errors([]),
        },
      },
    },
    "/webhooks": {
      post: {
        operationId: "createWebhook",
        tags: ["Webhooks"],
        summary: "Register an endpoint for events (session.refreshed, session.expired, credential.failed)",
        description:
          'Deliveries are POSTs of a JSON event, signed `X-Authsvc-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, ' +
          "retried with backoff on 5xx, 408, 429 and network faults. The URL must resolve to a public address. At most 10 per organization.",
        parameters: [paramRef("IdempotencyKey")],
        requestBody: {
          required: true,
          content: json("WebhookRequest", { url: ex.webhook.url, events: ex.webhook.events }),
        },
        responses: {
          "201": {
            description: "Registered; the answer carries the signing secret, shown once. `Location` names it.",
            headers: keyed("Location"),
            content: json("Webhook", { ...ex.webhook, secret: "whsec_example0000000000000000000000000000" }),
          },
          ...v1Errors(["target_not_allowed"], { post: true, idempotent: true }),
        },
      },
      get: {
        operationId: "listWebhooks",
        tags: ["Webhooks"],
        summary: "Your organization's webhooks (without secrets)",
        responses: { "200": listOf("webhooks", "Webhook", '{"webhooks": [...]}', ex.webhook), ...v1Errors([]) },
      },
    },
    "/webhooks/{id}": {
      delete: {
        operationId: "deleteWebhook",
        tags: ["Webhooks"],
        summary: "Stop delivering to an endpoint",
        parameters: [paramRef("WebhookId")],
        responses: { "204": { description: "Deleted.", headers: rated() }, ...v1Errors(["not_found"]) },
      },
    },
    "/proxies": {
      post: {
        operationId: "createProxy",
        tags: ["Proxies"],
        summary: "Add an egress proxy of your organization (HTTP or SOCKS5, with its credentials)",
        description:
          "A login may leave through it (`proxy`) or through a pool of proxies by label (`proxyPool`); the credential keeps the proxy it first " +
          "signed in through for its later logins, refreshes and keep-alive (sticky), until a login names another or the proxy is deleted. The URL's " +
          "credentials are stored encrypted and never shown again. Its host must be on the service's proxy allow-list (EGRESS_PROXY_ALLOW): " +
          "`target_not_allowed` otherwise. Every target the browser reaches through it is still checked first. At most 200 per organization.",
        parameters: [paramRef("IdempotencyKey")],
        requestBody: {
          required: true,
          content: json("ProxyRequest", {
            url: "http://user:secret@proxy.example.net:3128",
            label: ex.proxy.label,
            region: ex.proxy.region,
          }),
        },
        responses: {
          "201": {
            description: "Added. `Location` names it.",
            headers: keyed("Location"),
            content: json("Proxy", ex.proxy),
          },
          ...v1Errors(["target_not_allowed"], { post: true, idempotent: true }),
        },
      },
      get: {
        operationId: "listProxies",
        tags: ["Proxies"],
        summary: "Your organization's proxies (without their credentials)",
        responses: { "200": listOf("proxies", "Proxy", '{"proxies": [...]}', ex.proxy), ...v1Errors([]) },
      },
    },
    "/proxies/{id}": {
      delete: {
        operationId: "deleteProxy",
        tags: ["Proxies"],
        summary:
          "Delete a proxy: credentials that kept it leave directly, or through the proxy or pool their next login names",
        parameters: [paramRef("ProxyId")],
        responses: { "204": { description: "Deleted.", headers: rated() }, ...v1Errors(["not_found"]) },
      },
    },
    ...publicPaths,
  },
  components: {
    securitySchemes: {
      apiKey: { type: "http", scheme: "bearer", description: "An organization's API key, `pk_…`." },
      twilioSignature: {
        type: "apiKey",
        in: "header",
        name: "X-Twilio-Signature",
        description:
          "Twilio's HMAC-SHA1 of the webhook URL and the form parameters, keyed by the account's auth token (TWILIO_AUTH_TOKEN).",
      },
    },
    schemas,
    headers,
    parameters,
  },
};
