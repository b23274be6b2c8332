import type { Config } from "@authsvc/config";
import { STATS_HORIZON_HOURS, type Database } from "@authsvc/db";

/**
 * Deletes what the service no longer needs: sessions and OAuth provider sessions (encrypted cookies) some hours after they expired,
 * the records of finished jobs after the retention period (their hourly counts too, but never within the 8
 * days the charts read), received mail and SMS after theirs, and expired dashboard sign-ins at once (they
 * open nothing any more).
 * Keeping secrets longer helps nobody.
 */
export async function sweepRetention(db: Database, retention: Config["retention"], now = Date.now()) {
  const sessionCutoff = new Date(now - retention.sessionHours * 3_600_000);
  const sessions = await db.sessions.deleteExpiredBefore(sessionCutoff);
  const providerSessions = await db.providerSessions.deleteExpiredBefore(sessionCutoff);
  const jobs = await db.authJobs.deleteFinishedBefore(new Date(now - retention.jobDays * 86_400_000));
  const jobStatHours = await db.jobStats.deleteBefore(
    new Date(now - Math.max(retention.jobDays * 24, STATS_HORIZON_HOURS) * 3_600_000),
    now,
  );
  const messages = await db.inboundMessages.deleteReceivedBefore(new Date(now - retention.messageMinutes * 60_000));
  const dashboardSessions = await db.dashboardSessions.deleteExpiredBefore(new Date(now));
  return { sessions, providerSessions, jobs, jobStatHours, messages, dashboardSessions };
}
