import { Type, type Static } from "@sinclair/typebox";
import { stringEnum } from "./string-enum";
/** Events an organization can subscribe a webhook to. */
/** An organization's endpoints are few; this keeps one event from fanning out without bound. */
export const MAX_WEBHOOKS_PER_ORG = 10;
export const WEBHOOK_EVENTS = [
  "session.refreshed",
  "session.expired",
  "credential.failed",
  "job.needs_input",
  "credential.created",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const webhookSchema = Type.Object({
  id: Type.String({ pattern: "^whk_" }),
  url: Type.String(),
  events: Type.Array(stringEnum(WEBHOOK_EVENTS)),
  createdAt: Type.String({ format: "date-time" }),
  secret: Type.Optional(
    Type.String({ description: "Only in the answer to POST: the HMAC-SHA256 signing secret, shown once." }),
  ),
});
export type WebhookResource = Static<typeof webhookSchema>;

/**
 * What a webhook receives (JSON body). `data` names credentials and jobs by id and the site by origin;
 * it never carries a secret or a cookie.
 */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  createdAt: string;
  orgId: string;
  data: Record<string, string | number | null>;
}

export const webhookRequestSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, format: "uri", pattern: "^[hH][tT][tT][pP][sS]?://" }),
    // Default: all of them.
    events: Type.Optional(Type.Array(stringEnum(WEBHOOK_EVENTS), { minItems: 1, uniqueItems: true })),
  },
  { $id: "WebhookRequest", additionalProperties: false },
);
export type WebhookRequest = Static<typeof webhookRequestSchema>;
