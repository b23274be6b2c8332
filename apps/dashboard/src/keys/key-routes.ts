import { Router, type Response } from "express";
import type { Database } from "@authsvc/db";
import { when } from "../html/format";
import { html, type SafeHtml } from "../html/html";
import { csrfField } from "../html/layout";
import { field } from "../http/form";
import { HttpError } from "../http/http-error";
import { sendPage } from "../http/page";
import { orgOf } from "../orgs/org-context";

const KEY_ID = /^key_[0-9A-Za-z]{22}$/;
const NAME_MAX = 100;

/**
 * `/o/:orgId/keys`: the organization's API keys. A new key is shown once, in the answer to its creation;
 * a revoke takes effect at once: `announceRevocation` tells every gateway to verify its cached keys again.
 */
export function keyRoutes(db: Database, announceRevocation: (orgId: string) => Promise<void>): Router {
  const r = Router({ mergeParams: true });

  const keysPage = async (res: Response, top?: SafeHtml, status = 200) => {
    const org = orgOf(res);
    const keys = await db.apiKeys.list(org.id);
    sendPage(
      res,
      "API keys",
      html`${top ?? ""}
<div class="table"><table>
<thead><tr><th>Name</th><th>Public prefix</th><th>Created</th><th>Last used</th><th>Revoked</th><th><span class="muted">Action</span></th></tr></thead>
<tbody>${
        keys.length
          ? keys.map(
              (
                k,
              ) => html`<tr data-key-id="${k.id}"><td>${k.name}</td><td><code>${k.prefix}…</code></td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td><td>${k.revokedAt ? when(k.revokedAt) : "no"}</td>
<td>${k.revokedAt ? "" : html`<form method="get" action="/o/${org.id}/keys/${k.id}/revoke" class="inline"><button type="submit" class="danger">Revoke</button></form>`}</td></tr>`,
            )
          : html`<tr><td colspan="6" class="muted">No keys yet.</td></tr>`
      }</tbody>
</table></div>
<h2>New key</h2>
<form method="post" action="/o/${org.id}/keys" class="stack">
  ${csrfField(res.locals.csrfToken as string)}
  <label for="key-name">Key name</label><input id="key-name" name="name" type="text" required maxlength="${NAME_MAX}" placeholder="production">
  <button type="submit">Create API key</button>
</form>`,
      { current: "keys", status },
    );
  };

  r.get("/keys", (_req, res) => keysPage(res));

  r.post("/keys", async (req, res) => {
    const name = field(req, "name", { max: NAME_MAX + 1 });
    if (!name || name.length > NAME_MAX)
      return keysPage(
        res,
        html`<p class="error" role="alert">Give the key a name (at most ${NAME_MAX} characters).</p>`,
        400,
      );
    const { key, apiKey } = await db.apiKeys.create(orgOf(res).id, name);
    await keysPage(
      res,
      html`<div class="notice" role="status"><p>Key <strong>${apiKey.name}</strong> created. Copy it now: it is shown only this once.</p>
<div class="secret-box"><code id="new-key" class="secret">${key}</code><button type="button" data-copy="new-key">Copy</button></div></div>`,
      201,
    );
  });

  const findKey = async (res: Response, id: string) => {
    const key = KEY_ID.test(id) ? (await db.apiKeys.list(orgOf(res).id)).find((k) => k.id === id) : undefined;
    if (!key) throw HttpError.notFound("API key");
    return key;
  };

  r.get("/keys/:keyId/revoke", async (req, res) => {
    const org = orgOf(res);
    const key = await findKey(res, req.params.keyId as string);
    sendPage(
      res,
      "Revoke API key",
      html`<p>Revoke <strong>${key.name}</strong> (<code>${key.prefix}…</code>)? Requests with it are refused from this moment; this cannot be undone.</p>
<form method="post" action="/o/${org.id}/keys/${key.id}/revoke" class="inline">${csrfField(res.locals.csrfToken as string)}<button type="submit" class="danger">Revoke key</button></form>
<a href="/o/${org.id}/keys">Cancel</a>`,
      { current: "keys" },
    );
  });

  r.post("/keys/:keyId/revoke", async (req, res) => {
    const id = req.params.keyId as string;
    if (!KEY_ID.test(id) || !(await db.apiKeys.revokeInOrg(orgOf(res).id, id, announceRevocation)))
      throw HttpError.notFound("API key");
    res.redirect(303, `/o/${orgOf(res).id}/keys`);
  });

  return r;
}
