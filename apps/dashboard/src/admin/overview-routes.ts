import { Router } from "express";
import type { Database } from "@authsvc/db";
import { chartRangeOf } from "../charts/chart-range";
import { jobCharts } from "../charts/job-charts";
import { html } from "../html/html";
import { sendPage } from "../http/page";
import { adminNav } from "./admin-nav";

/** `/admin`: platform staff's charts of every organization's jobs (behind requirePlatformAdmin). */
export function overviewRoutes(db: Database, queuesPath: string): Router {
  const r = Router();
  r.get("/admin", async (req, res) => {
    const range = chartRangeOf(req);
    const charts = await jobCharts(db, {}, range, (to) => (to === "day" ? "/admin" : `/admin?range=${to}`));
    sendPage(
      res,
      "Admin",
      html`${adminNav("overview", queuesPath)}
<p class="muted">Every organization's jobs.</p>
${charts}`,
      { current: "admin" },
    );
  });
  return r;
}
