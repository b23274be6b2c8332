import { Router } from "express";
import type { Database } from "@authsvc/db";
import { when } from "../html/format";
import { html } from "../html/html";
import { postButton } from "../html/layout";
import { table } from "../html/table";
import { HttpError } from "../http/http-error";
import { pageContext, sendPage } from "../http/page";
import { orgOf } from "../orgs/org-context";

const MAILBOX_ID = /^mbx_[0-9A-Za-z]{22}$/;

/** `/o/:orgId/inboxes`: the org's mailboxes (delete) and the phone numbers the operator assigned it. */
export function inboxRoutes(db: Database): Router {
  const r = Router({ mergeParams: true });

  r.get("/inboxes", async (_req, res) => {
    const org = orgOf(res);
    const [mailboxes, phones] = await Promise.all([db.mailboxes.list(org.id), db.phoneNumbers.list(org.id)]);
    const ctx = pageContext(res);
    sendPage(
      res,
      "Inboxes",
      html`<h2>Mailboxes</h2>
${table(
  ["Address", "Label", "Forwarding", "Created", ""],
  mailboxes.map((m) => [
    m.address,
    m.label ?? "—",
    m.forwarding ? "yes" : "no",
    when(m.createdAt),
    postButton(ctx, `/o/${org.id}/inboxes/${m.id}/delete`, "Delete", { className: "danger" }),
  ]),
  "No mailboxes. Create them with POST /v1/mailboxes.",
)}
<h2>Phone numbers</h2>
${table(
  ["Number", "Label", "Assigned"],
  phones.map((p) => [p.number, p.label ?? "—", when(p.createdAt)]),
  "No phone numbers. The operator assigns them (pnpm cli phone add).",
)}`,
      { current: "inboxes" },
    );
  });

  r.post("/inboxes/:id/delete", async (req, res) => {
    const orgId = orgOf(res).id;
    const id = String(req.params.id);
    if (!MAILBOX_ID.test(id) || !(await db.mailboxes.remove(orgId, id))) throw HttpError.notFound("mailbox");
    res.redirect(303, `/o/${orgId}/inboxes`);
  });

  return r;
}
