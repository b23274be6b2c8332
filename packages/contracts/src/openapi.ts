import { publicPaths } from "./openapi-public-paths";
import { headers, parameters } from "./openapi-responses";
import { schemas } from "./openapi-schemas";
import { accountPaths } from "./openapi-account-paths";
import { credentialPaths } from "./openapi-credential-paths";
import { sessionPaths } from "./openapi-session-paths";
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
    ...sessionPaths,
    ...credentialPaths,
    ...accountPaths,
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
