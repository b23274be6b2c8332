import * as ex from "./openapi-examples";
import { json, keyed, listOf, paramRef, rated, v1Errors } from "./openapi-responses";

/** The organization's own resources: mailboxes and their mail, phone numbers, webhooks and proxies. */
export const accountPaths = {
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
};
