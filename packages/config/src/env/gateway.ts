import { text, type EnvVars } from "./env-var";

/** The API gateway's listener and its limits. */
export const GATEWAY_VARS = {
  GATEWAY_HOST: {
    type: "string",
    default: "0.0.0.0",
    description: "Address the gateway listens on.",
  },
  GATEWAY_PORT: {
    type: "integer",
    minimum: 0,
    maximum: 65535,
    default: 8080,
    description: "Port of the gateway.",
  },
  GATEWAY_MAX_BODY_BYTES: {
    type: "integer",
    minimum: 1024,
    default: 65536,
    description: "Largest request body accepted (413 above).",
  },
  GATEWAY_WAIT_MS: {
    type: "integer",
    minimum: 0,
    default: 55000,
    description: "How long a login request waits for its job before answering 202 with a job id.",
  },
  RATE_LIMIT_PER_MINUTE: {
    type: "integer",
    minimum: 1,
    default: 600,
    description: text(
      "Requests per organization per minute, across all gateway replicas: a token bucket of this size",
      "refilled at this rate (a burst of at most this many).",
    ),
  },
  TRUST_PROXY: {
    type: "boolean",
    default: false,
    description: "Trust `X-Forwarded-*` from a proxy in front of the gateway.",
  },
} as const satisfies EnvVars;
