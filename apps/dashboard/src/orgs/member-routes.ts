import { Router } from "express";
import type { Database } from "@authsvc/db";
import { when } from "../html/format";
import { html } from "../html/html";
import { csrfField, type PageContext } from "../html/layout";
import { field } from "../http/form";
import { HttpError } from "../http/http-error";
import { pageContext, sendPage } from "../http/page";
import { requireUser, sessionOf } from "../accounts/signed-in";
import { orgOf, requireOwner } from "./org-context";

const INVITATION_TTL_MS = 7 * 24 * 3600_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** `/o/:orgId/members`: who is in the organization; owners make invitation links (shown once). */
export function memberRoutes(db: Database, publicUrl: (req: import("express").Request) => string): Router {
  const r = Router({ mergeParams: true });

  r.get("/members", async (_req, res) => {
    const org = orgOf(res);
    const [members, pending] = await Promise.all([
      db.dashboardUsers.members(org.id),
      org.role === "owner" ? db.invitations.pending(org.id) : [],
    ]);
    sendPage(
      res,
      "Members",
      html`<div class="table"><table>
<thead><tr><th>Email</th><th>Role</th><th>Since</th></tr></thead>
<tbody>${members.map((m) => html`<tr><td>${m.user.email}</td><td>${m.role}</td><td>${when(m.createdAt)}</td></tr>`)}</tbody>
</table></div>
${org.role === "owner" ? inviteForm(pageContext(res), org.id, pending.length) : ""}`,
      { current: "members" },
    );
  });

  r.post("/invitations", requireOwner, async (req, res) => {
    const org = orgOf(res);
    const role = field(req, "role") === "owner" ? "owner" : "member";
    const { token, expiresAt } = await db.invitations.create(org.id, sessionOf(res)!.user.id, role, INVITATION_TTL_MS);
    const link = `${publicUrl(req)}/invite/${token}`;
    sendPage(
      res,
      "Invitation link",
      html`<p>Send this link to the person you invite (as ${role}). It works once, until ${when(expiresAt)}, and is shown only now.</p>
<div class="secret-box"><code id="invite-link" class="secret">${link}</code><button type="button" data-copy="invite-link">Copy</button></div>
<p><a href="/o/${org.id}/members">Back to members</a></p>`,
      { current: "members" },
    );
  });

  return r;
}

function inviteForm(ctx: PageContext, orgId: string, pending: number) {
  return html`<h2>Invite someone</h2>
<form method="post" action="/o/${orgId}/invitations" class="stack">
  ${csrfField(ctx.csrfToken)}
  <label for="role">Role</label><select id="role" name="role"><option value="member">member</option><option value="owner">owner</option></select>
  <button type="submit">Create invitation link</button>
</form>
<p class="muted">${pending} unused invitation link${pending === 1 ? "" : "s"} still open.</p>`;
}

/** `/invite/:token`: see which organization a link leads to, and join it (signed in). */
export function invitationRoutes(db: Database): Router {
  const r = Router();

  r.get("/invite/:token", async (req, res) => {
    const token = String(req.params.token);
    const org = TOKEN.test(token) ? await db.invitations.preview(token) : null;
    if (!org) throw new HttpError(404, "This invitation link is unknown, used or expired. Ask for a new one.");
    const here = encodeURIComponent(req.originalUrl);
    const body = sessionOf(res)
      ? html`<p>You are invited to join <strong>${org.name}</strong>.</p>
<form method="post" action="/invite/${token}">${csrfField(res.locals.csrfToken as string)}<button type="submit">Join ${org.name}</button></form>`
      : html`<p>You are invited to join <strong>${org.name}</strong>. <a href="/signup?next=${here}">Create an account</a> or <a href="/signin?next=${here}">sign in</a> to accept.</p>`;
    sendPage(res, "Invitation", body);
  });

  r.post("/invite/:token", requireUser, async (req, res) => {
    const token = String(req.params.token);
    const outcome = TOKEN.test(token)
      ? await db.invitations.accept(token, sessionOf(res)!.user.id)
      : ({ refused: "unknown" } as const);
    if ("refused" in outcome)
      throw new HttpError(
        410,
        `This invitation link is ${outcome.refused === "unknown" ? "unknown" : outcome.refused}. Ask for a new one.`,
      );
    res.redirect(303, `/o/${outcome.joined.orgId}/keys`);
  });

  return r;
}
