import { Router, type Response } from "express";
import type { Database } from "@authsvc/db";
import { html } from "../html/html";
import { csrfField } from "../html/layout";
import { field } from "../http/form";
import { sendPage } from "../http/page";
import { sessionOf } from "../accounts/signed-in";

const NAME_MAX = 100;

function createForm(res: Response) {
  return html`<form method="post" action="/orgs" class="stack">
  ${csrfField(res.locals.csrfToken as string)}
  <label for="org-name">Organization name</label><input id="org-name" name="name" type="text" required maxlength="${NAME_MAX}">
  <button type="submit">Create organization</button>
</form>`;
}

/** The signed-in user's organizations: where `/` leads, and creating one. */
export function orgRoutes(db: Database): Router {
  const r = Router();

  r.get("/", async (_req, res) => {
    const orgs = await db.dashboardUsers.organizationsOf(sessionOf(res)!.user.id);
    res.redirect(303, orgs.length ? `/o/${orgs[0]!.org.id}/keys` : "/orgs");
  });

  const orgsPage = async (res: Response, problem?: string) => {
    const orgs = await db.dashboardUsers.organizationsOf(sessionOf(res)!.user.id);
    sendPage(
      res,
      "Organizations",
      html`${problem ? html`<p class="error" role="alert">${problem}</p>` : ""}
${
  orgs.length
    ? html`<ul>${orgs.map((m) => html`<li><a href="/o/${m.org.id}/keys">${m.org.name}</a> <span class="muted">(${m.role})</span></li>`)}</ul>`
    : html`<p>You are not a member of any organization yet. Create one, or open an invitation link someone sent you.</p>`
}
<h2>New organization</h2>
${createForm(res)}`,
      { status: problem ? 400 : 200 },
    );
  };

  r.get("/orgs", (_req, res) => orgsPage(res));

  r.post("/orgs", async (req, res) => {
    const name = field(req, "name", { max: NAME_MAX + 1 });
    if (!name || name.length > NAME_MAX)
      return orgsPage(res, `Give the organization a name (at most ${NAME_MAX} characters).`);
    const org = await db.dashboardUsers.createOrganization(sessionOf(res)!.user.id, name);
    res.redirect(303, `/o/${org.id}/keys`);
  });

  return r;
}
