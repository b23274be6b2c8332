import { Router, type Response } from "express";
import type { Queue } from "bullmq";
import { MAX_WEBHOOKS_PER_ORG, WEBHOOK_EVENTS } from "@authsvc/contracts";
import { newWebhookSecret } from "@authsvc/crypto";
import type { Database } from "@authsvc/db";
import type { TargetGuard } from "@authsvc/egress";
import type { WebhookDeliveryPayload } from "@authsvc/queue";
import { when } from "../html/format";
import { html, type SafeHtml } from "../html/html";
import { csrfField, postButton } from "../html/layout";
import { table } from "../html/table";
import { field, fields } from "../http/form";
import { HttpError } from "../http/http-error";
import { pageContext, sendPage } from "../http/page";
import { orgOf } from "../orgs/org-context";
import { recentDeliveries } from "./webhook-deliveries";

const WEBHOOK_ID = /^whk_[0-9A-Za-z]{22}$/;

/**
 * `/o/:orgId/webhooks`: the org's endpoints with their recent deliveries; create (the signing secret is
 * shown once, as the API's POST shows it) and delete. Addresses are checked like the API checks them.
 */
export function webhookRoutes(db: Database, guard: TargetGuard, queue: Queue<WebhookDeliveryPayload>): Router {
  const r = Router({ mergeParams: true });

  const webhooksPage = async (res: Response, top?: SafeHtml, status = 200) => {
    const org = orgOf(res);
    const [hooks, deliveries] = await Promise.all([db.webhooks.list(org.id), recentDeliveries(queue, org.id)]);
    const ctx = pageContext(res);
    sendPage(
      res,
      "Webhooks",
      html`${top ?? ""}
${table(
  ["URL", "Events", "Created", ""],
  hooks.map((w) => [
    w.url,
    w.events.join(", "),
    when(w.createdAt),
    postButton(ctx, `/o/${org.id}/webhooks/${w.id}/delete`, "Delete", { className: "danger" }),
  ]),
  "No webhooks.",
)}
${hooks.map(
  (w) => html`<h2>Recent deliveries to ${w.url}</h2>
${table(
  ["When", "Event", "State", "Attempts", "Outcome"],
  (deliveries.get(w.id) ?? []).map((d) => [
    when(d.at),
    html`${d.eventType} <code>${d.eventId}</code>`,
    d.state,
    d.attempts,
    d.outcome,
  ]),
  "No deliveries in the last days.",
)}`,
)}
<h2>New webhook</h2>
<form method="post" action="/o/${org.id}/webhooks" class="stack">
  ${csrfField(ctx.csrfToken)}
  <label for="hook-url">Endpoint URL</label><input id="hook-url" name="url" type="url" required maxlength="2000" placeholder="https://example.com/hooks/authsvc">
  <fieldset><legend>Events</legend>${WEBHOOK_EVENTS.map((e) => html`<label><input type="checkbox" name="events" value="${e}" checked> ${e}</label>`)}</fieldset>
  <button type="submit">Create webhook</button>
</form>`,
      { current: "webhooks", status },
    );
  };

  r.get("/webhooks", (_req, res) => webhooksPage(res));

  r.post("/webhooks", async (req, res) => {
    const orgId = orgOf(res).id;
    const url = field(req, "url", { max: 2001 });
    const events = fields(req, "events").filter((e): e is (typeof WEBHOOK_EVENTS)[number] =>
      (WEBHOOK_EVENTS as readonly string[]).includes(e),
    );
    const refuse = (message: string) => webhooksPage(res, html`<p class="error" role="alert">${message}</p>`, 400);
    if (!/^https?:\/\//i.test(url) || url.length > 2000) return refuse("Enter an http(s) URL.");
    if (!events.length) return refuse("Pick at least one event.");
    const verdict = await guard.check(url);
    if (!verdict.allowed) return refuse(`Webhook address refused: ${verdict.reason}.`);
    if ((await db.webhooks.list(orgId)).length >= MAX_WEBHOOKS_PER_ORG)
      return refuse(`At most ${MAX_WEBHOOKS_PER_ORG} webhooks per organization; delete one first.`);
    const secret = newWebhookSecret();
    await db.webhooks.create(orgId, url, events, secret);
    await webhooksPage(
      res,
      html`<div class="notice" role="status"><p>Webhook created. Its signing secret (HMAC-SHA256 of each delivery) is shown only this once:</p>
<div class="secret-box"><code id="new-secret" class="secret">${secret}</code><button type="button" data-copy="new-secret">Copy</button></div></div>`,
      201,
    );
  });

  r.post("/webhooks/:id/delete", async (req, res) => {
    const orgId = orgOf(res).id;
    const id = String(req.params.id);
    if (!WEBHOOK_ID.test(id) || !(await db.webhooks.remove(orgId, id))) throw HttpError.notFound("webhook");
    res.redirect(303, `/o/${orgId}/webhooks`);
  });

  return r;
}
