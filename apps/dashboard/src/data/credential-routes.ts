import { Router } from "express";
import { credentialStatus } from "@authsvc/contracts";
import type { Database } from "@authsvc/db";
import type { SessionCache } from "@authsvc/queue";
import { when } from "../html/format";
import { html } from "../html/html";
import { postButton } from "../html/layout";
import { table } from "../html/table";
import { HttpError } from "../http/http-error";
import { pageContext, sendPage } from "../http/page";
import { orgOf } from "../orgs/org-context";

const CREDENTIAL_ID = /^cred_[0-9A-Za-z]{22}$/;
const SESSION_ID = /^ses_[0-9A-Za-z]{22}$/;
const PAGE = 200;

/** `/o/:orgId/credentials` and `/sessions`: metadata only (never a secret or a cookie); delete and drop. */
export function credentialRoutes(db: Database, cache: SessionCache): Router {
  const r = Router({ mergeParams: true });

  r.get("/credentials", async (_req, res) => {
    const org = orgOf(res);
    const rows = (await db.credentials.list(org.id, { limit: PAGE })) ?? [];
    const ctx = pageContext(res);
    sendPage(
      res,
      "Credentials",
      html`${table(
        ["Site", "Username", "Collection", "Status", "Last login", "Last error", ""],
        rows.map((c) => [
          c.siteOrigin,
          c.username,
          c.collection?.externalId ?? "—",
          credentialStatus(c),
          when(c.lastLoginAt),
          c.lastErrorCode ? html`<code>${c.lastErrorCode}</code>` : "—",
          postButton(ctx, `/o/${org.id}/credentials/${c.id}/delete`, "Delete", { className: "danger" }),
        ]),
        "No stored credentials.",
      )}
<p class="muted">Deleting a credential deletes its sessions (cached ones too) and its job records.</p>`,
      { current: "credentials" },
    );
  });

  r.post("/credentials/:id/delete", async (req, res) => {
    const orgId = orgOf(res).id;
    const id = String(req.params.id);
    const fingerprints = CREDENTIAL_ID.test(id) ? await db.credentials.remove(orgId, id) : null;
    if (!fingerprints) throw HttpError.notFound("credential");
    await Promise.all(fingerprints.map((fp) => cache.delete(orgId, fp)));
    res.redirect(303, `/o/${orgId}/credentials`);
  });

  r.get("/sessions", async (_req, res) => {
    const org = orgOf(res);
    const rows = await db.sessions.listLive(org.id, PAGE);
    const ctx = pageContext(res);
    sendPage(
      res,
      "Sessions",
      html`${table(
        ["Site", "Username", "Created", "Expires", ""],
        rows.map((s) => [
          s.origin,
          s.credential.username,
          when(s.createdAt),
          when(s.expiresAt),
          postButton(ctx, `/o/${org.id}/sessions/${s.id}/drop`, "Drop", { className: "danger" }),
        ]),
        "No live sessions.",
      )}
<p class="muted">Dropping a session removes it from the cache: the next login with those credentials signs in again.</p>`,
      { current: "sessions" },
    );
  });

  r.post("/sessions/:id/drop", async (req, res) => {
    const orgId = orgOf(res).id;
    const id = String(req.params.id);
    const fingerprints = SESSION_ID.test(id) ? await db.sessions.remove(orgId, id) : null;
    if (!fingerprints) throw HttpError.notFound("session");
    await Promise.all(fingerprints.map((fp) => cache.delete(orgId, fp)));
    res.redirect(303, `/o/${orgId}/sessions`);
  });

  return r;
}
