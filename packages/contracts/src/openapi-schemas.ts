import { errorBodySchema } from "./error-body";
import { passkeyEnrolRequestSchema, refreshRequestSchema, verifyRequestSchema } from "./credentials";
import { mailboxRequestSchema, mailboxSchema, phoneNumberSchema } from "./inboxes";
import { inputAnswerSchema, inputRequestSchema } from "./handoff";
import { entryLinkRequestSchema } from "./entry-links";
import { webhookRequestSchema, webhookSchema } from "./webhooks";
import { PROXY_REGIONS, proxyRequestSchema } from "./proxies";
import { loginRequestSchema } from "./login-request";
import { cookieSchema, sessionSchema } from "./session";
import { signupRequestSchema } from "./signup-request";
import { jobEventStream } from "./openapi-job-schemas";
import { jobErrorSchema, jobSchema } from "./job-resource";
import { jobEventSchema } from "./job-events";
import {
  credential,
  credentialMethod,
  entryLink,
  passkeyAdded,
  passkeyEnrolment,
  passkeyImported,
  signupResult,
  storedCredentialSession,
} from "./openapi-credential-schemas";

// The OpenAPI document's schemas (components.schemas): the request schemas are the ones the gateway
// validates with, the rest describe what it answers.

const { $id: _id, ...loginRequest } = loginRequestSchema;
const { $id: _iid, ...inputAnswer } = inputAnswerSchema;
const { $id: _mid, ...mailboxRequest } = mailboxRequestSchema;
const { $id: _rid, ...refreshRequest } = refreshRequestSchema;
const { $id: _vid, ...verifyRequest } = verifyRequestSchema;
const { $id: _peid, ...passkeyEnrolRequest } = passkeyEnrolRequestSchema;

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

const { $id: _elid, ...entryLinkRequest } = entryLinkRequestSchema;

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
  Job: jobSchema,
  JobError: jobErrorSchema,
  InputRequest: inputRequestSchema,
  InputAnswer: inputAnswer,
  JobEvent: jobEventSchema,
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
  Webhook: webhookSchema,
  ProxyRequest: proxyRequest,
  Proxy: proxy,
  Mailbox: mailboxSchema,
  InboundMessage: inboundMessage,
  PhoneNumber: phoneNumberSchema,
  Health: health,
};
