import { Router } from "express";
import type { TargetGuard } from "@authsvc/egress";
import {
  compileValidator,
  MAX_WEBHOOKS_PER_ORG,
  WEBHOOK_EVENTS,
  webhookRequestSchema,
  type WebhookResource,
} from "@authsvc/contracts";
import { newWebhookSecret } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";
import { ApiError } from "../http/api-error";

const validate = compileValidator(webhookRequestSchema);
const WEBHOOK_ID = /^whk_[0-9A-Za-z]{22}$/;

const resource = (w: { id: string; url: string; events: string[]; createdAt: Date }): WebhookResource => ({
  id: w.id,
  url: w.url,
  events: w.events as WebhookResource["events"],
  createdAt: w.createdAt.toISOString(),
});

/**
 * Webhook endpoints of the organization. The URL must resolve to a public address (as login targets do):
 * deliveries come from inside our network. The signing secret is shown once, in the answer to POST.
 */
export function webhookRoutes(db: Database, guard: TargetGuard): Router {
  const r = Router();

  r.post("/webhooks", async (req, res) => {
    const checked = validate(req.body);
    if (!checked.ok) throw ApiError.invalid(checked.errors);
    const { url, events = [...WEBHOOK_EVENTS] } = checked.value;
    const orgId = res.locals.orgId as string;
    const verdict = await guard.check(url);
    if (!verdict.allowed) throw new ApiError(verdict.code, `Webhook address refused: ${verdict.reason}.`);
    if ((await db.webhooks.list(orgId)).length >= MAX_WEBHOOKS_PER_ORG) {
      throw ApiError.invalid([
        { field: "/url", message: `at most ${MAX_WEBHOOKS_PER_ORG} webhooks per organization; delete one first` },
      ]);
    }
    const secret = newWebhookSecret();
    const created = await db.webhooks.create(orgId, url, events, secret);
    res
      .status(201)
      .location(`${req.baseUrl}/webhooks/${created.id}`)
      .json({ ...resource(created), secret });
  });

  r.get("/webhooks", async (_req, res) => {
    res.json({ webhooks: (await db.webhooks.list(res.locals.orgId as string)).map(resource) });
  });

  r.delete("/webhooks/:id", async (req, res) => {
    if (!WEBHOOK_ID.test(req.params.id) || !(await db.webhooks.remove(res.locals.orgId as string, req.params.id))) {
      throw new ApiError("not_found", "No such webhook.");
    }
    res.status(204).end();
  });

  return r;
}
