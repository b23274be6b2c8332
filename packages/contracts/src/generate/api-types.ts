import { errorBodySchema, fieldErrorSchema } from "../error-body";
import { ERROR_CODES } from "../error-codes";
import {
  passkeyEnrolRequestSchema,
  passkeyImportSchema,
  refreshRequestSchema,
  verifyRequestSchema,
} from "../credentials";
import {
  CREDENTIAL_STATUSES,
  credentialMethodSchema,
  credentialSchema,
  passkeyMethodSchema,
  secretMethodSchema,
} from "../credential-resource";
import { ENTRY_LINK_STATUSES, entryLinkRequestSchema, entryLinkSchema } from "../entry-links";
import { HANDOFF_REASONS, INPUT_FIELDS, inputAnswerSchema, inputRequestSchema } from "../handoff";
import { JOB_EVENT_TYPES, jobEventSchema } from "../job-events";
import { JOB_STATUSES, jobErrorSchema, jobSchema } from "../job-resource";
import { inboundMessageSchema, mailboxRequestSchema, mailboxSchema, phoneNumberSchema } from "../inboxes";
import { LOGIN_METHODS, loginCredSchema, loginRequestSchema } from "../login-request";
import { PROXY_REGIONS, proxyRequestSchema, proxySchema } from "../proxies";
import {
  cookieSchema,
  httpCredentialsSchema,
  indexedDbDatabaseSchema,
  sessionSchema,
  storageStateSchema,
} from "../session";
import { SIGNUP_METHODS, signupCredSchema, signupRequestSchema } from "../signup-request";
import {
  passkeyEnrolmentSchema,
  passkeyImportedSchema,
  signupAccountSchema,
  signupResultSchema,
  storedCredentialSessionSchema,
} from "../stored-sessions";
import { WEBHOOK_EVENTS, webhookRequestSchema, webhookSchema } from "../webhooks";
import { generatedHeader } from "./generated-header";
import { pythonDeclarations } from "./python-types";
import type { NamedType } from "./schema-walk";
import { typescriptDeclarations, typescriptImports } from "./typescript-types";

// The API's request and answer shapes, from their TypeBox schemas, as the clients' own types: the SDK's
// (published without the contracts) and the Python client's TypedDicts. In the order they are declared.

const API_TYPES: readonly NamedType[] = [
  {
    name: "Cookie",
    schema: cookieSchema,
    doc:
      "A cookie as the API returns it. `domain`: `.example.com` for a domain cookie (subdomains too), " +
      "`example.com` for a host-only cookie.",
  },
  {
    name: "IndexedDbDatabase",
    schema: indexedDbDatabaseSchema,
    doc: "An IndexedDB database of an origin, as Playwright's `storageState({ indexedDB: true })` writes it.",
  },
  { name: "StorageState", schema: storageStateSchema },
  {
    name: "HttpCredentials",
    schema: httpCredentialsSchema,
    doc: "Playwright's `httpCredentials` context option: the username and password a site's HTTP authentication takes, for its origin.",
  },
  {
    name: "SessionResponse",
    component: "Session",
    schema: sessionSchema,
    doc: "What a login answers: the cookies, every origin the login touched, and the full browser state.",
  },
  { name: "LoginMethod", words: LOGIN_METHODS, list: "LOGIN_METHODS" },
  { name: "LoginCred", schema: loginCredSchema },
  { name: "LoginRequest", schema: loginRequestSchema, doc: "POST /v1/login: exactly the API's body." },
  { name: "SignupMethod", words: SIGNUP_METHODS, list: "SIGNUP_METHODS" },
  { name: "SignupCred", schema: signupCredSchema },
  { name: "SignupRequest", schema: signupRequestSchema, doc: "POST /v1/signup: exactly the API's body." },
  {
    name: "PasskeyMethod",
    schema: passkeyMethodSchema,
    doc: "A passkey of a credential as the API shows it: its id, relying party and dates, never its key.",
  },
  { name: "SecretMethod", schema: secretMethodSchema, doc: "The stored secret's way of signing in." },
  {
    name: "CredentialMethod",
    schema: credentialMethodSchema,
    doc: "One way a credential signs in: its stored secret's method, or one of its passkeys (never its key).",
  },
  { name: "CredentialStatus", words: CREDENTIAL_STATUSES, list: "CREDENTIAL_STATUSES" },
  {
    name: "CredentialResource",
    component: "Credential",
    schema: credentialSchema,
    doc: "A stored credential, as the API shows it: metadata only, never a secret.",
  },
  {
    name: "RefreshRequest",
    schema: refreshRequestSchema,
    doc: "POST /v1/refresh: a credential by id, or by the domain, username and collection its login used.",
  },
  {
    name: "VerifyRequest",
    schema: verifyRequestSchema,
    doc: "POST /v1/credentials/{id}/verify: a confirmation link or code, or neither (read from our inbox).",
  },
  {
    name: "PasskeyImport",
    schema: passkeyImportSchema,
    doc:
      "A passkey you hold (made on another device, exported from a password manager): its fields, or `cxf`, a " +
      "FIDO Credential Exchange Format passkey credential or an item holding one. Binary values base64url; the " +
      "key PKCS#8 (base64url DER or PEM) or a private JWK, ES256, EdDSA (Ed25519) or RS256; `rpId` the " +
      "credential's site (its login page host or a parent domain within its registrable domain).",
  },
  {
    name: "PasskeyEnrolRequest",
    schema: passkeyEnrolRequestSchema,
    doc: "POST /v1/credentials/{id}/passkeys: where the site adds passkeys, when you know it (else it is found); or `import`, a passkey you hold.",
  },
  {
    name: "StoredCredentialSession",
    schema: storedCredentialSessionSchema,
    doc: "What refresh and verify answer: the session, the credential, and when the session ends.",
  },
  { name: "SignupAccount", schema: signupAccountSchema },
  {
    name: "SignupResponse",
    component: "SignupResult",
    schema: signupResultSchema,
    doc: "What a successful signup answers: the session, the stored credential and the account.",
  },
  {
    name: "PasskeyImported",
    schema: passkeyImportedSchema,
    doc: "What importing a passkey answers: the passkey kept (never its key) and the credential; no browser ran.",
  },
  {
    name: "PasskeyEnrolment",
    schema: passkeyEnrolmentSchema,
    doc: "What adding a passkey answers: the session of the sign-in it made, and the passkey (its id, relying party).",
  },
  {
    name: "EntryLinkRequest",
    schema: entryLinkRequestSchema,
    doc: "POST /v1/credentials/entry-links: a hosted page where the end user types their own credentials for a site.",
  },
  { name: "EntryLinkStatus", words: ENTRY_LINK_STATUSES, list: "ENTRY_LINK_STATUSES" },
  { name: "EntryLinkResource", component: "EntryLink", schema: entryLinkSchema },
  { name: "MailboxRequest", schema: mailboxRequestSchema },
  { name: "MailboxResource", component: "Mailbox", schema: mailboxSchema },
  {
    name: "InboundMessageResource",
    component: "InboundMessage",
    schema: inboundMessageSchema,
    doc: "A message a mailbox received, as GET /v1/mailboxes/{id}/messages lists it.",
  },
  { name: "PhoneNumberResource", component: "PhoneNumber", schema: phoneNumberSchema },
  { name: "WebhookEventType", words: WEBHOOK_EVENTS, list: "WEBHOOK_EVENTS" },
  { name: "WebhookRequest", schema: webhookRequestSchema },
  { name: "WebhookResource", component: "Webhook", schema: webhookSchema },
  { name: "ProxyRegion", words: PROXY_REGIONS, list: "PROXY_REGIONS" },
  {
    name: "ProxyRequest",
    schema: proxyRequestSchema,
    doc: "POST /v1/proxies: an egress proxy of the organization (its credentials are never shown again).",
  },
  { name: "ProxyResource", component: "Proxy", schema: proxySchema },
  { name: "ErrorCode", words: Object.keys(ERROR_CODES), declaredIn: "./error-codes" },
  {
    name: "FieldError",
    schema: fieldErrorSchema,
    doc: "What is wrong with one field: `field` is a JSON pointer into the request body, e.g. `/cred/password`.",
  },
  { name: "ErrorBody", schema: errorBodySchema },
  { name: "JobStatus", words: JOB_STATUSES, list: "JOB_STATUSES" },
  { name: "HandoffReason", words: HANDOFF_REASONS, list: "HANDOFF_REASONS" },
  { name: "InputField", words: INPUT_FIELDS, list: "INPUT_FIELDS" },
  { name: "InputRequest", schema: inputRequestSchema },
  { name: "JobError", schema: jobErrorSchema },
  {
    name: "JobResource",
    component: "Job",
    schema: jobSchema,
    doc: "GET /v1/jobs/{jobId}, and the body of a 202 answer. `Result`: what the call that made it answers (a signup's SignupResponse).",
    typeParameter: { name: "Result", default: "SessionResponse", property: "result" },
  },
  { name: "JobEventType", words: JOB_EVENT_TYPES, list: "JOB_EVENT_TYPES" },
  {
    name: "JobEvent",
    schema: jobEventSchema,
    doc: "One step of a job, as GET /v1/jobs/{jobId}/events streams it. Never carries a secret or the session.",
  },
  {
    name: "InputAnswerRequest",
    schema: inputAnswerSchema,
    doc: "POST /v1/jobs/{jobId}/input: a code, a choice, an answer, or `{}` (look again).",
  },
];

const SOURCE = "the TypeBox schemas of packages/contracts/src";

export function sdkApiTypes(): string {
  return `${generatedHeader("//", SOURCE)}\n\n${typescriptImports(API_TYPES)}\n${typescriptDeclarations(API_TYPES)}`;
}

export function pythonApiTypes(): string {
  const body = pythonDeclarations(API_TYPES);
  const used = ["Any", "Dict", "List", "Literal", "TypedDict", "Union"].filter((n) =>
    new RegExp(`\\b${n}\\b`).test(body),
  );
  return `${generatedHeader("#", SOURCE)}
"""The API's request and answer shapes as TypedDicts: what the client sends and reads, field for field."""

from __future__ import annotations

from typing import ${used.join(", ")}


${body}`;
}
