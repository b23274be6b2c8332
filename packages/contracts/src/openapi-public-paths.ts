import { errorResponses, headerRefs, json } from "./openapi-responses";

// The operations outside the API key: Twilio's signed webhook, and the service's own public routes at the
// root (health probes, this description and its page).

/** Public, like the API description itself: served at the root, not under /v1, without an API key. */
const atRoot = { servers: [{ url: "/", description: "The service's root (outside the /v1 prefix)." }] };

export const publicPaths = {
  "/inbound/sms": {
    post: {
      operationId: "inboundSms",
      tags: ["Inboxes"],
      summary: "Twilio's incoming-SMS webhook (no API key: X-Twilio-Signature)",
      description:
        "Called by Twilio for the numbers assigned to organizations. A MessageSid seen before is answered 200 and not stored again.",
      security: [{ twilioSignature: [] }],
      requestBody: {
        required: true,
        content: {
          "application/x-www-form-urlencoded": {
            schema: {
              type: "object",
              required: ["To", "Body"],
              properties: {
                To: { type: "string" },
                From: { type: "string" },
                Body: { type: "string" },
                MessageSid: { type: "string" },
              },
            },
            examples: {
              example: {
                value: {
                  To: "+14155550123",
                  From: "+14155550199",
                  Body: "Your code is 482913",
                  MessageSid: "SM0123456789abcdef0123456789abcdef",
                },
              },
            },
          },
        },
      },
      responses: {
        "200": {
          description: "Stored; empty TwiML (no reply SMS).",
          headers: headerRefs("X-Request-Id"),
          content: {
            "text/xml": {
              schema: { type: "string" },
              example: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
            },
          },
        },
        ...errorResponses([
          "invalid_request",
          "unauthorized",
          "not_found",
          "unsupported_media_type",
          "payload_too_large",
          "internal_error",
          "service_unavailable",
        ]),
      },
    },
  },
  "/healthz": {
    ...atRoot,
    get: {
      operationId: "health",
      tags: ["Service"],
      summary: "Liveness: 503 while the gateway shuts down",
      security: [],
      responses: {
        "200": { description: "Up.", headers: headerRefs("X-Request-Id"), content: json("Health", { ok: true }) },
        "503": {
          description: "Shutting down.",
          headers: headerRefs("X-Request-Id"),
          content: json("Health", { ok: false }),
        },
      },
    },
  },
  "/readyz": {
    ...atRoot,
    get: {
      operationId: "ready",
      tags: ["Service"],
      summary: "Readiness: PostgreSQL and Redis answer",
      security: [],
      responses: {
        "200": {
          description: "Ready.",
          headers: headerRefs("X-Request-Id"),
          content: json("Health", { ok: true, database: true, redis: true }),
        },
        "503": {
          description: "Not ready: which dependency is away.",
          headers: headerRefs("X-Request-Id"),
          content: json("Health", { ok: false, database: true, redis: false }),
        },
      },
    },
  },
  "/openapi.json": {
    ...atRoot,
    get: {
      operationId: "openApiDocument",
      tags: ["Service"],
      summary: "This description (OpenAPI 3.1)",
      security: [],
      responses: {
        "200": {
          description: "The document.",
          headers: headerRefs("X-Request-Id"),
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["openapi", "info", "paths"],
                properties: { openapi: { type: "string" }, info: { type: "object" }, paths: { type: "object" } },
              },
              example: { openapi: "3.1.0", info: { title: "authsvc", version: "1.0.0" }, paths: {} },
            },
          },
        },
      },
    },
  },
  "/docs": {
    ...atRoot,
    get: {
      operationId: "docsPage",
      tags: ["Service"],
      summary: "This description as a web page",
      description:
        "Renders /openapi.json in the browser; its scripts and styles are served by the gateway itself (no CDN).",
      security: [],
      responses: {
        "200": {
          description: "The page.",
          headers: headerRefs("X-Request-Id"),
          content: {
            "text/html": {
              schema: { type: "string" },
              example: "<!doctype html><html><head><title>authsvc API</title>…",
            },
          },
        },
      },
    },
  },
};
