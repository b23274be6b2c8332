/**
 * The API's request and answer shapes, as the SDK's own public types: the SDK ships without the service's
 * private packages. Those of generated/ are made from the contracts' schemas (`npm run generate:contracts`);
 * contracts-check.ts proves at compile time that the rest match @authsvc/contracts.
 */
import type {
  CredentialResource,
  InboundMessageResource,
  WebhookEventType,
  WebhookResource,
} from "./generated/api-types";

export * from "./generated/api-types";

/** POST /v1/credentials/{id}/passkeys: where the site adds passkeys, when you know it (else it is found). */
export interface PasskeyEnrolRequest {
  settingsUrl?: string;
  allowHandoff?: boolean;
  /** A passkey you hold, kept instead of adding one on the site (`credentials.importPasskey`). */
  import?: PasskeyImport;
}

/**
 * A passkey you hold (made on another device, exported from a password manager): its fields, or `cxf`, a
 * FIDO Credential Exchange Format passkey credential or an item holding one. Binary values base64url; the
 * key PKCS#8 (base64url DER or PEM) or a private JWK, ES256, EdDSA (Ed25519) or RS256; `rpId` the
 * credential's site (its login page host or a parent domain within its registrable domain).
 */
export interface PasskeyImport {
  credentialId?: string;
  privateKey?: string | Record<string, unknown>;
  rpId?: string;
  userHandle?: string;
  signCount?: number;
  cxf?: Record<string, unknown>;
}

export interface CredentialPage {
  credentials: CredentialResource[];
  /** The next page's link, or null on the last page. */
  next: string | null;
}

export interface MessagePage {
  messages: InboundMessageResource[];
  next: string | null;
}

/** The answer to POST /v1/webhooks: the only time the signing secret is shown. */
export interface CreatedWebhook extends WebhookResource {
  secret: string;
}

/** What a webhook delivery carries (its JSON body). */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  orgId: string;
  data: Record<string, string | number | null>;
}
