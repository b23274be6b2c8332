import { errorBodySchema } from "./error-body";
import { passkeyEnrolRequestSchema, refreshRequestSchema, verifyRequestSchema } from "./credentials";
import { inboundMessageSchema, mailboxRequestSchema, mailboxSchema, phoneNumberSchema } from "./inboxes";
import { inputAnswerSchema, inputRequestSchema } from "./handoff";
import { entryLinkRequestSchema, entryLinkSchema } from "./entry-links";
import { webhookRequestSchema, webhookSchema } from "./webhooks";
import { proxyRequestSchema, proxySchema } from "./proxies";
import { loginRequestSchema } from "./login-request";
import { cookieSchema, sessionSchema } from "./session";
import { signupRequestSchema } from "./signup-request";
import { jobEventStream } from "./openapi-job-schemas";
import { credentialMethodSchema, credentialSchema } from "./credential-resource";
import { jobErrorSchema, jobSchema } from "./job-resource";
import { jobEventSchema } from "./job-events";
import {
  passkeyAddedSchema,
  passkeyEnrolmentSchema,
  passkeyImportedSchema,
  signupResultSchema,
  storedCredentialSessionSchema,
} from "./stored-sessions";

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

const { $id: _sid, ...signupRequest } = signupRequestSchema;

const { $id: _elid, ...entryLinkRequest } = entryLinkRequestSchema;

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
  SignupResult: signupResultSchema,
  Session: sessionSchema,
  StoredCredentialSession: storedCredentialSessionSchema,
  Cookie: cookieSchema,
  Job: jobSchema,
  JobError: jobErrorSchema,
  InputRequest: inputRequestSchema,
  InputAnswer: inputAnswer,
  JobEvent: jobEventSchema,
  JobEventStream: jobEventStream,
  Error: errorBodySchema,
  MailboxRequest: mailboxRequest,
  Credential: credentialSchema,
  EntryLinkRequest: entryLinkRequest,
  EntryLink: entryLinkSchema,
  RefreshRequest: refreshRequest,
  VerifyRequest: verifyRequest,
  PasskeyEnrolRequest: passkeyEnrolRequest,
  PasskeyEnrolment: passkeyEnrolmentSchema,
  PasskeyImported: passkeyImportedSchema,
  PasskeyAdded: passkeyAddedSchema,
  CredentialMethod: credentialMethodSchema,
  WebhookRequest: webhookRequest,
  Webhook: webhookSchema,
  ProxyRequest: proxyRequest,
  Proxy: proxySchema,
  Mailbox: mailboxSchema,
  InboundMessage: inboundMessageSchema,
  PhoneNumber: phoneNumberSchema,
  Health: health,
};
