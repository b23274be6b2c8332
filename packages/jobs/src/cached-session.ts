import { loginPageOf, type SessionResponse } from "@authsvc/contracts";
import type { CachedEntry, PrefetchedEntry } from "@authsvc/queue";
import type { JobDeps } from "./job-deps";
import { checkSession } from "./session-check";
import { loginFingerprint, originFingerprint, type SessionIdentity } from "./session-keys";

/**
 * The session cached for a login of this identity, when it is known to be alive, or null (the login runs
 * afresh). Known alive: the session check found it so within SESSION_CHECK_MAX_AGE (a login that just
 * signed in with it counts). An older entry is checked now: alive, it is served and marked; dead (the site
 * signed it out), it is dropped; when the check cannot tell, it is not served and kept (the login that
 * follows replaces it). Without a target guard nothing can be checked, and only a fresh entry is served.
 *
 * A session cached before sessions were keyed by login page, under the origin's key, is served (and copied
 * under the page's key) only when the job that cached it logged in on this same login page, since another
 * application of the origin may have cached it. `prefetched`: the entry as the gateway read it ahead.
 */
export async function cachedSession(
  deps: Pick<JobDeps, "db" | "cache" | "config" | "guard" | "log">,
  orgId: string,
  login: SessionIdentity,
  prefetched?: PrefetchedEntry,
): Promise<SessionResponse | null> {
  const { cache, db, config } = deps;
  const key = loginFingerprint(config.crypto.fingerprintKey, orgId, login);
  let entry = await cache.get(orgId, key, prefetched);
  if (!entry) {
    const legacy = originFingerprint(config.crypto.fingerprintKey, orgId, login);
    const old = await cache.get(orgId, legacy);
    if (!old) return null;
    const loginUrl = await db.authJobs.succeededLoginUrl(orgId, legacy);
    if (!loginUrl || loginPageOf(loginUrl) !== login.loginPage) return null;
    const ttl = await cache.ttlSeconds(orgId, legacy);
    if (ttl <= 0) return null;
    await cache.set(orgId, key, { ...old.session, signedInPage: old.signedInPage }, ttl, old.checkedAt ?? 0);
    entry = old;
  }
  return (await servable(deps, orgId, key, entry, { loginPage: login.loginPage, identifier: login.identifier }))
    ? entry.session
    : null;
}

/** Whose session a check reads: the login page, and the username or email a page may show. */
type Account = { loginPage: string; identifier?: string };

// Checks running in this process, per cache (one per gateway), by entry: concurrent hits on one entry due a
// check share it, so a burst of requests asks the site once.
const running = new WeakMap<object, Map<string, Promise<boolean>>>();

/** Whether a cached entry may be served now: checked recently enough, or found alive by a check now. */
function servable(
  deps: Pick<JobDeps, "cache" | "config" | "guard" | "log">,
  orgId: string,
  key: string,
  entry: CachedEntry,
  account: Account,
): Promise<boolean> {
  const maxAgeMs = deps.config.session.checkMaxAgeSeconds * 1000;
  if (entry.checkedAt !== undefined && Date.now() - entry.checkedAt < maxAgeMs) return Promise.resolve(true);
  if (!deps.guard) return Promise.resolve(false);
  let checks = running.get(deps.cache);
  if (!checks) running.set(deps.cache, (checks = new Map()));
  // The entry as stored names the check: one a login replaced meanwhile is checked on its own.
  const id = `${orgId}:${key}:${entry.sealed}`;
  let check = checks.get(id);
  if (!check) {
    check = checkNow(deps, orgId, key, entry, account).finally(() => checks!.delete(id));
    checks.set(id, check);
  }
  return check;
}

async function checkNow(
  deps: Pick<JobDeps, "cache" | "config" | "guard" | "log">,
  orgId: string,
  key: string,
  entry: CachedEntry,
  account: Account,
): Promise<boolean> {
  const { cache, config, guard, log } = deps;
  if (!guard) return false;
  const { health, reason } = await checkSession(
    guard,
    { session: entry.session, signedInPage: entry.signedInPage, ...account },
    config.session.checkTimeoutMs,
  );
  if (health === "alive") {
    await cache
      .markChecked(orgId, key, entry)
      .catch((err) => log.warn({ err: String(err) }, "session check not recorded"));
    return true;
  }
  log.info(
    { orgId, health, reason },
    health === "dead"
      ? "cached session found signed out; dropped"
      : "cached session not served: its check could not tell",
  );
  if (health === "dead")
    await cache
      .dropIfUnchanged(orgId, key, entry)
      .catch((err) => log.warn({ err: String(err) }, "dead cached session not dropped"));
  return false;
}
