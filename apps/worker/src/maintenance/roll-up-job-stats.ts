import { statsWindows, type Database } from "@authsvc/db";

// A rollup far behind (the first run after the upgrade: 8 days) catches up in one maintenance run, 6 hours per
// transaction (5 new ones: each reaches back into the last).
const MAX_STEPS = 48;

/**
 * Brings the dashboard's hourly job counts up to date with the jobs that finished since the last run; the
 * hours it recomputes are counted again from auth_jobs, never added to.
 */
export async function rollUpJobStats(db: Database, now = new Date()) {
  let hours = 0;
  for (let step = 1; ; step++) {
    const run = await db.jobStats.rollUp(now);
    hours += (run.to.getTime() - run.from.getTime()) / 3_600_000;
    if (run.caughtUp || step === MAX_STEPS) return { hours, caughtUp: run.caughtUp };
  }
}

/** Recomputes the busiest sites and those whose success rate fell, per organization and for all, from the hourly counts. */
export async function refreshSiteStats(db: Database, now = new Date()) {
  return { sites: await db.jobStatSites.refresh(statsWindows(now)) };
}
