import type { Route } from "./transport";

/**
 * Every public endpoint the SDK calls, by the OpenAPI document's operationId (paths under /v1).
 * routes.test.ts checks this table against the document both ways, and that each SDK method calls its route.
 */
export const ROUTES = {
  login: { method: "POST", path: "/login", idempotent: true },
  signup: { method: "POST", path: "/signup", idempotent: true },
  refresh: { method: "POST", path: "/refresh", idempotent: true },
  getJob: { method: "GET", path: "/jobs/{jobId}" },
  getJobEvents: { method: "GET", path: "/jobs/{jobId}/events" },
  answerJobInput: { method: "POST", path: "/jobs/{jobId}/input" },
  listCredentials: { method: "GET", path: "/credentials" },
  getCredential: { method: "GET", path: "/credentials/{id}" },
  deleteCredential: { method: "DELETE", path: "/credentials/{id}" },
  forgetCredentialDevice: { method: "DELETE", path: "/credentials/{id}/device" },
  verifyCredential: { method: "POST", path: "/credentials/{id}/verify", idempotent: true },
  enrolPasskey: { method: "POST", path: "/credentials/{id}/passkeys", idempotent: true },
  deletePasskey: { method: "DELETE", path: "/credentials/{id}/passkeys/{passkeyId}" },
  createEntryLink: { method: "POST", path: "/credentials/entry-links", idempotent: true },
  getEntryLink: { method: "GET", path: "/entry-links/{id}" },
  createMailbox: { method: "POST", path: "/mailboxes", idempotent: true },
  listMailboxes: { method: "GET", path: "/mailboxes" },
  getMailbox: { method: "GET", path: "/mailboxes/{id}" },
  deleteMailbox: { method: "DELETE", path: "/mailboxes/{id}" },
  getForwardingMailbox: { method: "GET", path: "/mailboxes/forwarding" },
  listMailboxMessages: { method: "GET", path: "/mailboxes/{id}/messages" },
  listPhoneNumbers: { method: "GET", path: "/phone-numbers" },
  createWebhook: { method: "POST", path: "/webhooks", idempotent: true },
  listWebhooks: { method: "GET", path: "/webhooks" },
  deleteWebhook: { method: "DELETE", path: "/webhooks/{id}" },
  createProxy: { method: "POST", path: "/proxies", idempotent: true },
  listProxies: { method: "GET", path: "/proxies" },
  deleteProxy: { method: "DELETE", path: "/proxies/{id}" },
} as const satisfies Record<string, Route>;

export type OperationId = keyof typeof ROUTES;
