import type { Config } from "@authsvc/config";
import type { Database } from "@authsvc/db";
import type { TargetGuard } from "@authsvc/egress";
import { checkSession, refreshSecret, storedLoginIdentity, type AuthJobs } from "@authsvc/jobs";
import type { Logger } from "@authsvc/logging";
import type { SessionCache } from "@authsvc/queue";
import type { SessionResponse } from "@authsvc/contracts";
import type { BrowserHost } from "@authsvc/browser";
import { storedSessionSignedIn } from "@authsvc/flows";

export interface KeepAliveDeps {
  config: Pick<Config, "keepAlive" | "session">;
  db: Database;
  jobs: AuthJobs;
  log: Logger;
  /**
   * What the background session check needs; without it keep-alive only refreshes by expiry. `inBrowser`:
   * the browser's check of a session a plain request could not read (true: signed in, false: signed out,
   * null: nothing proven), at most BROWSER_CHECKS_PER_RUN a run.
   */
  checks?: {
    guard: TargetGuard;
    cache: SessionCache;
    inBrowser?: (session: SessionResponse, loginUrl: string) => Promise<boolean | null>;
  };
}

// The whole browser check of one stored session: its page load, and the reading's own wait for the form or the account.
const BROWSER_CHECK_TIMEOUT_MS = 20_000;

/** Keep-alive's browser check (`checks.inBrowser`): a page of the worker's Chromium, in a fresh context, per session. */
export function browserSessionCheck(
  browser: BrowserHost,
  guard: TargetGuard,
): NonNullable<NonNullable<KeepAliveDeps["checks"]>["inBrowser"]> {
  return (session, loginUrl) =>
    browser.withPage((page) => storedSessionSignedIn(page, session, loginUrl, guard, BROWSER_CHECK_TIMEOUT_MS));
}

// Sessions that ended longer ago than this are not reported (e.g. when keep-alive is first switched on).
const REPORT_EXPIRED_WITHIN_MS = 24 * 3_600_000;
const BATCH = 100;
// One run handles at most this many batches; the rest waits for the next run (every KEEPALIVE_EVERY_MS).
const MAX_BATCHES = 20;
// Session checks of one run in flight at once.
const CHECKS_AT_ONCE = 4;
// Browser checks (a page of Chromium each) in one run, for sessions a plain request could not read.
const BROWSER_CHECKS_PER_RUN = 10;
// The least time a run's checks may start in, whatever KEEPALIVE_EVERY_MS is.
const MIN_CHECK_BUDGET_MS = 10_000;

type DueSession = Awaited<ReturnType<Database["sessions"]["dueForKeepAlive"]>>[number];
type Refreshable = Pick<DueSession, "orgId" | "job"> & {
  credential: Omit<DueSession["credential"], "authJobs" | "sessions">;
};

/**
 * Keeps sessions alive: first each credential's newest session that expires within the window (or is older
 * than the configured age) is refreshed, whatever its checks found; then the health check of sessions not
 * checked for SESSION_CHECK_MAX_AGE (see checkHealth), which never holds a refresh back (a run's checks can
 * take long: a browser's, for pages a plain request cannot read) and skips what this run refreshed. A
 * session is refreshed by a refresh job with the credential's stored secret under the key a
 * caller's login of it computes, so the fresh session replaces the cached one. A session that ended without
 * a replacement (its credential failing, never refreshable, or signed out by the site with no refresh that
 * worked) is reported once as `session.expired`. A refresh that cannot be started (database or Redis away)
 * is rolled back by `AuthJobs.start` and left for the next run.
 */
export async function keepAlive(
  deps: KeepAliveDeps,
  now = new Date(),
): Promise<{ refreshing: number; expired: number; checked: number; revoked: number }> {
  const { config, db, log } = deps;
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
      if (!session.expired) {
        if (await refresh(deps, session)) {
          refreshing++;
          handled.push(session.id);
        }
        // Alive but not refreshable (its job record is gone): reported when it ends.
      } else if (credential.authJobs.length === 0) {
        await deps.jobs.emit(orgId, "session.expired", {
          credentialId: credential.id,
          site: credential.siteOrigin,
          username: credential.username,
          expiredAt: session.expiresAt.toISOString(),
          reason: session.revokedAt
            ? "revoked"
            : (credential.lastErrorCode ?? (job ? "not_refreshed" : "no_stored_secret")),
        });
        expired++;
        handled.push(session.id);
      }
      // Ended while a login of its credential still runs: that login replaces it, or it is reported after.
    }
    await db.sessions.markKeptAlive(handled);
    // A batch that handled nothing would come back the same.
    if (due.length < BATCH || handled.length === 0) break;
  }
  // A session refreshed above is marked handled, and no longer due a check.
  const health = await checkHealth(deps, now);
  refreshing += health.refreshing;
  if (refreshing || expired || health.checked)
    log.info({ refreshing, expired, checked: health.checked, revoked: health.revoked }, "keep-alive");
  return { refreshing, expired, checked: health.checked, revoked: health.revoked };
}

/** Whether a cache entry holds this stored session (the same cookies), not one a later login made. */
function sameSession(a: SessionResponse, b: SessionResponse): boolean {
  const jar = (s: SessionResponse) => JSON.stringify(s.cookies.map((c) => [c.domain, c.path, c.name, c.value]).sort());
  return jar(a) === jar(b);
}

/**
 * Starts a refresh of a session's credential with its stored secret, unless the credential cannot log in
 * again (no secret, no job, failing). A login of the same credential already running (a caller's, or a
 * refresh) does the work. False when nothing was started.
 */
async function refresh(deps: KeepAliveDeps, session: Refreshable): Promise<boolean> {
  const { db, jobs, log } = deps;
  const { credential, orgId, job } = session;
  if (!job || !credential.lastLoginAt || credential.lastErrorCode) return false;
  const stored = await db.credentials.secret(orgId, credential.id);
  if (!stored || stored.awaitsPassword) return false;
  const secret = await refreshSecret(db, orgId, credential.id, stored);
  // The key a caller's login of this credential computes (not the job's, which may be older).
  const identity = storedLoginIdentity(
    { ...credential, collectionExternalId: credential.collection?.externalId },
    secret,
  );
  try {
    await jobs.start({
      orgId,
      kind: "refresh",
      method: secret.method,
      loginUrl: credential.loginUrl,
      useCache: false,
      fingerprint: jobs.loginKey(orgId, identity),
      credential: { id: credential.id },
      input: { kind: "login", ...secret },
      // In the credential's region; one with no worker now is tried again next run, not waited for here.
      awaitRegion: false,
    });
    return true;
  } catch (err) {
    log.warn(
      { orgId, credentialId: credential.id, err: String(err) },
      "keep-alive refresh not started; trying again next run",
    );
    return false;
  }
}

/**
 * The background session check: sessions not checked for SESSION_CHECK_MAX_AGE, least recently checked
 * first, at most KEEPALIVE_CHECKS_PER_RUN a run and KEEPALIVE_CHECKS_PER_SITE of one site, so a cached
 * session is found checked when a caller asks for it. Alive: its cache entry is marked checked. Dead (the
 * site signed it out): it ends now, its cache entry is dropped and a refresh starts (reported as
 * `session.expired`, reason `revoked`, when none can, or none works). A page whose HTML looks the same
 * without the session (an app that signs in from storage) is checked in a browser holding the session.
 * Unknown (the site down, a 5xx, nothing proven): nothing is concluded, and nothing logs in on it.
 */
async function checkHealth(
  deps: KeepAliveDeps,
  now: Date,
): Promise<{ checked: number; revoked: number; refreshing: number }> {
  const { config, db, log, checks } = deps;
  const { checksPerRun, checksPerSite } = config.keepAlive;
  const result = { checked: 0, revoked: 0, refreshing: 0 };
  if (!checks || checksPerRun === 0) return result;
  const due = await db.sessions.dueForCheck(
    now,
    new Date(now.getTime() - config.session.checkMaxAgeSeconds * 1000),
    checksPerRun * 2,
  );
  const perSite = new Map<string, number>();
  const chosen = due
    .filter((s) => {
      const n = perSite.get(s.credential.siteOrigin) ?? 0;
      perSite.set(s.credential.siteOrigin, n + 1);
      return n < checksPerSite;
    })
    .slice(0, checksPerRun);
  let next = 0;
  let browserChecks = 0;
  const checkOne = async (session: (typeof chosen)[number]) => {
    const found = await db.sessions.findState(session.orgId, session.id).catch(() => null);
    if (!found) return;
    const loginPage = session.credential.loginPage ?? session.credential.loginUrl;
    let { health, reason, browserMayTell } = await checkSession(
      checks.guard,
      { session: found.state, signedInPage: found.signedInPage, loginPage, identifier: session.credential.username },
      config.session.checkTimeoutMs,
    );
    if (browserMayTell && checks.inBrowser && browserChecks < BROWSER_CHECKS_PER_RUN) {
      browserChecks++;
      const signedIn = await checks.inBrowser(found.state, session.credential.loginUrl).catch(() => null);
      if (signedIn === true) [health, reason] = ["alive", "a browser with the session was shown the account"];
      // The login page shown again is "signed out" only on a site where this check saw the session signed in
      // before: some sites show their form to everyone, and a verdict that could never be "signed in" there
      // would refresh the session on every check.
      else if (signedIn === false && session.seenAliveAt)
        [health, reason] = [
          "dead",
          "a browser with the session was shown the login form, where it was shown the account before",
        ];
      else if (signedIn === false)
        reason = "a browser with the session was shown the login form, and no check has seen it signed in";
    }
    result.checked++;
    const key = session.job?.fingerprint;
    if (health === "dead") {
      log.info(
        { orgId: session.orgId, credentialId: session.credential.id, reason },
        "session found signed out by the site",
      );
      await db.sessions.markRevoked(session.id, new Date());
      const cached = key ? await checks.cache.get(session.orgId, key) : null;
      // Only this session's entry: a login that replaced it meanwhile keeps its own.
      if (key && cached && sameSession(cached.session, found.state))
        await checks.cache.dropIfUnchanged(session.orgId, key, cached);
      result.revoked++;
      if (await refresh(deps, session)) result.refreshing++;
      return;
    }
    // Unknown counts as a check for when to look again; only alive marks the cached entry servable.
    await db.sessions.markChecked(session.id, health === "alive", new Date());
    if (health === "alive" && key) {
      const entry = await checks.cache.get(session.orgId, key);
      if (entry && sameSession(entry.session, found.state)) await checks.cache.markChecked(session.orgId, key, entry);
    }
  };
  // Checks start only within the run's own interval: the next run (its refreshes first) is not held back by
  // this one's checks; what was not checked stays due, least recently checked first.
  const until = Date.now() + Math.max(config.keepAlive.everyMs, MIN_CHECK_BUDGET_MS);
  await Promise.all(
    Array.from({ length: Math.min(CHECKS_AT_ONCE, chosen.length) }, async () => {
      while (next < chosen.length && Date.now() < until) {
        const session = chosen[next++]!;
        await checkOne(session).catch((err) =>
          log.warn({ sessionId: session.id, err: String(err) }, "session check failed"),
        );
      }
    }),
  );
  return result;
}
