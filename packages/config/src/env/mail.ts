import { text, type EnvVars } from "./env-var";

/** Mail-in: the mailbox domain, its SMTP server and how it trusts forwarded mail; received messages' retention. */
export const MAIL_VARS = {
  MAIL_DOMAIN: {
    type: "string",
    pattern: "^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9-]{2,63}$",
    default: "mail.localhost",
    description: text(
      "The service's mailbox domain. `POST /v1/mailboxes` hands out addresses on it, and mail-in accepts",
      "mail for its mailboxes only. Point the domain's MX record at mail-in. Production refuses a",
      "`.localhost` domain.",
    ),
  },
  MAIL_SMTP_HOST: {
    type: "string",
    default: "0.0.0.0",
    description: "Address mail-in's SMTP server listens on.",
  },
  MAIL_SMTP_PORT: {
    type: "integer",
    minimum: 0,
    maximum: 65535,
    default: 2525,
    description: "Port of mail-in's SMTP server (map 25 to it in front).",
  },
  MAIL_HEALTH_PORT: {
    type: "integer",
    minimum: 0,
    maximum: 65535,
    default: 8082,
    description: "Port of mail-in's `/healthz`, `/readyz` and `/metrics`.",
  },
  MAIL_DNS_SERVERS: {
    type: "string",
    default: "",
    description: text(
      "DNS servers mail-in asks for DKIM and ARC keys, `address` or `address:port`, comma separated (a",
      "validating resolver of your own). Anything else is refused at start. Empty: the system's resolvers.",
    ),
  },
  MAIL_ARC_TRUSTED_SEALERS: {
    type: "string",
    default: "google.com,microsoft.com,messagingengine.com",
    description: text(
      "Forwarders whose ARC seal is believed about the DKIM results they saw before forwarding",
      "(Gmail/Workspace, Microsoft 365/Outlook, Fastmail). See",
      "[api.md](api.md#who-sent-a-forwarded-message).",
    ),
  },
  MAIL_MAX_BYTES: {
    type: "integer",
    minimum: 1024,
    default: 2097152,
    description: "Largest message mail-in accepts (SMTP `SIZE`); larger ones are refused with 552.",
  },
  MESSAGE_RETENTION_MINUTES: {
    type: "integer",
    minimum: 1,
    default: 1440,
    description: "How long received mail and SMS (encrypted) are kept before the retention sweep deletes them.",
  },
} as const satisfies EnvVars;
