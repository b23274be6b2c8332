import { failuresOf } from "./job-failure-codes";
import * as ex from "./openapi-examples";
import { json, keyed, paramRef, rated, v1Errors } from "./openapi-responses";

/** 202: the browser job outlived the wait (or `Prefer: respond-async`); where to poll it and where it streams. */
export const stillRunning = {
  description:
    'Still running: poll the `Location` (GET /jobs/{jobId}) or follow its progress at the `Link` rel="monitor" (GET /jobs/{jobId}/events).',
  headers: keyed("Location", "X-Job-Id", "Link"),
  content: json("Job", ex.pendingJob),
};

/** How a login job can end (login, refresh, verify, passkeys: the same browser login), target check included. */
export const LOGIN_FAILURES = failuresOf("login");
/** How a signup job can end (an OAuth signup meets the provider's walls too). */
export const SIGNUP_FAILURES = failuresOf("signup");

/** Log in, sign up and refresh; the jobs of the runs that outlive the wait. */
export const sessionPaths = {
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
          description: "The stream, until the job's last event. On the wire:\n\n```\n" + ex.eventStreamWire + "…\n```",
          headers: rated(),
          content: {
            "text/event-stream": { schema: { $ref: "#/components/schemas/JobEventStream" }, example: ex.eventStream },
          },
        },
        ...v1Errors(["invalid_request", "not_found"]),
      },
    },
  },
};
