import { html, type SafeHtml } from "../html/html";

/** The admin area's own links, on each of its pages. */
export function adminNav(current: "overview" | "failed-jobs", queuesPath: string): SafeHtml {
  const link = (path: string, label: string, on: boolean) =>
    html`<a href="${path}"${on ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<nav class="subnav" aria-label="Admin">${link("/admin", "Overview", current === "overview")}${link("/admin/failed-jobs", "Failed jobs", current === "failed-jobs")}${link(queuesPath, "Queues (bull-board)", false)}</nav>`;
}
