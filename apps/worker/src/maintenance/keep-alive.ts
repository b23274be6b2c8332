import type { Config } from "@authsvc/config";
import type { Database } from "@authsvc/db";
import { storedLoginIdentity, type AuthJobs } from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";

export interface KeepAliveDeps {
  config: Pick<Config, "keepAlive">;
  db: Database;
  jobs: AuthJobs;
  log: Logger;
}

// Sessions that ended longer ago than this are not reported (e.g. when keep-alive is first switched on).
const REPORT_EXPIRED_WITHIN_MS = 24 * 3_600_000;
const BATCH = 100;
// One run handles at most this many batches; the rest waits for the next run (every KEEPALIVE_EVERY_MS).
const MAX_BATCHES = 20;

/**
 * Keeps sessions alive: each credential's newest session that expires within the window (or is older
 * than the configured age) is refreshed, by a refresh job with the credential's stored secret under the
 * key a caller's login of it computes, so the fresh session replaces the cached one. A session that
 * ended without a replacement (its credential failing, or never refreshable) is reported once as
 * `session.expired`. A refresh that cannot be started (database or Redis away) is rolled back by
 * `AuthJobs.start` and left for the next run.
 */
export async function keepAlive(deps: KeepAliveDeps, now = new Date()): Promise<{ refreshing: number; expired: number }> {
  const { config, db, jobs, log } = deps;
  const { beforeExpiryMinutes, maxAgeHours } = config.keepAlive;
  let refreshing = 0;
  let expired = 0;
  // Batch after batch: every session a batch returns is marked handled, so the next one starts further on.
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await db.sessions.dueForKeepAlive(
      now,
      new Date(now.getTime() + beforeExpiryMinutes * 60_000),
      maxAgeHours > 0 ? new Date(now.getTime() - maxAgeHours * 3_600_000) : null,
      new Date(now.getTime() - REPORT_EXPIRED_WITHIN_MS),
      BATCH,
    );
    const handled: string[] = [];
    for (const session of due) {
      const { credential, orgId, job } = session;
      const secret = !session.expired && job ? await db.credentials.secret(orgId, credential.id) : null;
      if (secret && job) {
        // The key a caller's login of this credential computes (not the job's, which may be older).
        const identity = storedLoginIdentity({ ...credential, collectionExternalId: credential.collection?.externalId }, secret);
        try {
          // A login of the same credential already running (a caller's, or a refresh) does the work.
          await jobs.start({
            orgId,
            kind: "refresh",
            method: secret.method,
            loginUrl: credential.loginUrl,
            useCache: false,
            fingerprint: jobs.loginKey(orgId, identity),
            credential: { id: credential.id },
            input: secret,
          });
        } catch (err) {
          log.warn({ orgId, credentialId: credential.id, err: String(err) }, "keep-alive refresh not started; trying again next run");
          continue;
        }
        refreshing++;
        handled.push(session.id);
      } else if (session.expired) {
        await jobs.emit(orgId, "session.expired", {
          credentialId: credential.id,
          site: credential.siteOrigin,
          username: credential.username,
          expiredAt: session.expiresAt.toISOString(),
          reason: credential.lastErrorCode ?? (job ? "not_refreshed" : "no_stored_secret"),
        });
        expired++;
        handled.push(session.id);
      }
      // Alive but not refreshable (its job record is gone): reported when it ends.
    }
    await db.sessions.markKeptAlive(handled);
    // A batch that handled nothing would come back the same.
    if (due.length < BATCH || handled.length === 0) break;
  }
  if (refreshing || expired) log.info({ refreshing, expired }, "keep-alive");
  return { refreshing, expired };
}
