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
