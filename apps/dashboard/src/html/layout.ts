import { html, type HtmlValue, type SafeHtml } from "./html";

/** Who is looking and where: what every page's frame needs. */
export interface PageContext {
  user?: { email: string; isPlatformAdmin: boolean };
  /** The organization the page belongs to (its nav), when the page is one of an organization's. */
  org?: { id: string; name: string; role: string };
  csrfToken: string;
}

const ORG_NAV = [
  ["keys", "API keys"],
  ["jobs", "Jobs"],
  ["credentials", "Credentials"],
  ["sessions", "Sessions"],
  ["inboxes", "Inboxes"],
  ["webhooks", "Webhooks"],
  ["members", "Members"],
] as const;

/** The hidden synchronizer token every form carries (checked on every non-GET request). */
export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}">`;

/** A one-button form that posts to `action`: how every state change is made. */
export function postButton(
  ctx: PageContext,
  action: string,
  label: string,
  extra: { className?: string; fields?: Record<string, string> } = {},
): SafeHtml {
  const fields = Object.entries(extra.fields ?? {}).map(
    ([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`,
  );
  return html`<form method="post" action="${action}" class="inline">${csrfField(ctx.csrfToken)}${fields}<button type="submit" class="${extra.className ?? ""}">${label}</button></form>`;
}

function nav(ctx: PageContext, current: string | undefined): SafeHtml {
  const links: HtmlValue[] = [];
  if (ctx.org) {
    for (const [path, label] of ORG_NAV) {
      links.push(
        html`<a href="/o/${ctx.org.id}/${path}"${current === path ? html` aria-current="page"` : ""}>${label}</a>`,
      );
    }
  }
  if (ctx.user?.isPlatformAdmin)
    links.push(html`<a href="/admin"${current === "admin" ? html` aria-current="page"` : ""}>Admin</a>`);
  return html`<nav aria-label="Main">${links}</nav>`;
}

export function layout(ctx: PageContext, title: string, body: SafeHtml, current?: string): SafeHtml {
  const account = ctx.user
    ? html`<div class="account"><a href="/orgs">${ctx.org ? ctx.org.name : "Organizations"}</a> · <a href="/account">${ctx.user.email}</a>
        <form method="post" action="/signout" class="inline">${csrfField(ctx.csrfToken)}<button type="submit" class="link">Sign out</button></form></div>`
    : "";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · authsvc dashboard</title>
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body>
<header><a class="brand" href="/">authsvc</a>${account}</header>
${ctx.user ? nav(ctx, current) : ""}
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}
