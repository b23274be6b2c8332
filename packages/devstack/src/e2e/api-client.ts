import { loadConfig } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { announceKeyRevocation, createRedis, SessionCache } from "@authsvc/queue";
import { expectGreeted } from "@authsvc/test-sites";

export const gatewayUrl = () => process.env.E2E_GATEWAY_URL!;
export const sitesUrl = () => process.env.E2E_SITES_URL!;
/** The fixture sites under their host name (acme.test, through the host map): their mail is DKIM-signed for it. */
export const namedSitesUrl = () => process.env.E2E_NAMED_SITES_URL!;

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = any>(
  method: string,
  path: string,
  init: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined || init.raw !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(`${gatewayUrl()}${path}`, {
    method,
    headers,
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text, the assertion will show it
  }
  return { status: res.status, headers: res.headers, body };
}

let db: Database | undefined;
export function database(): Database {
  db ??= Database.fromConfig(loadConfig(), 2);
  return db;
}
export async function closeDatabase(): Promise<void> {
  await db?.close();
  db = undefined;
}

/** A fresh organization and a key for it, made the way the CLI makes them. */
export async function newTenant(name = "Test org"): Promise<{ orgId: string; key: string; keyId: string }> {
  const org = await database().organizations.create(name);
  const { key, apiKey } = await database().apiKeys.create(org.id, "e2e");
  return { orgId: org.id, key, keyId: apiKey.id };
}

/** Revokes a key as the dashboard and the CLI do: in Postgres, then the mark that tells every gateway. */
export async function revokeKey(keyId: string): Promise<void> {
  const { redis } = loadConfig();
  const client = createRedis(redis, "blocking", "e2e-revoke");
  try {
    await database().apiKeys.revoke(keyId, (orgId) => announceKeyRevocation(client, redis.prefix, orgId));
  } finally {
    client.disconnect();
  }
}

let userSeq = 0;
/** A user that exists only on the fixture sites, unique to the calling test, so attempt counts are its own. */
export async function newSiteUser(
  password = "correct-horse-battery",
  options: { email?: boolean; locked?: boolean; totpSecret?: string } = {},
): Promise<{ username: string; password: string }> {
  const username = `user${process.pid}x${++userSeq}x${Date.now().toString(36)}${options.email ? "@example.test" : ""}`;
  const res = await fetch(`${sitesUrl()}/__fixture/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password, locked: options.locked === true, totpSecret: options.totpSecret }),
  });
  if (res.status !== 204) throw new Error(`fixture refused the user: ${res.status}`);
  return { username, password };
}

/** Ends the user's sessions on every fixture site, as if they had timed out server-side. */
export async function expireSiteSessions(username: string): Promise<number> {
  const res = await fetch(`${sitesUrl()}/__fixture/expire-sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username }),
  });
  return ((await res.json()) as { ended: number }).ended;
}

/**
 * Makes every session the org has cached look last checked long ago (as SESSION_CHECK_MAX_AGE after the
 * login that cached it), so the next hit checks it on the site first. Returns how many entries it aged.
 */
export async function ageCachedSessions(orgId: string, config = loadConfig()): Promise<number> {
  const client = createRedis(config.redis, "blocking", "e2e-cache");
  try {
    const cache = new SessionCache(client, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing)));
    const prefix = cache.key(orgId, "");
    let aged = 0;
    for (const key of await client.keys(`${prefix}*`)) {
      const fingerprint = key.slice(prefix.length);
      const entry = await cache.get(orgId, fingerprint);
      if (entry) await cache.markChecked(orgId, fingerprint, entry, 0);
      aged += entry ? 1 : 0;
    }
    return aged;
  } finally {
    client.disconnect();
  }
}

/** Login attempts the fixture sites counted for a user, per site. */
export async function attempts(username: string): Promise<Record<string, number>> {
  return (await fetch(`${sitesUrl()}/__fixture/attempts/${encodeURIComponent(username)}`)).json() as Promise<
    Record<string, number>
  >;
}

export function loginBody(
  site: "classic" | "spa",
  user: { username: string; password: string },
  extra: Record<string, unknown> = {},
) {
  return { domain: `${sitesUrl()}/${site}/login`, login_method: "password", cred: { ...user }, ...extra };
}

/** Switches the fixture's "redesign" login page between its two designs. */
export async function redesignFixture(version: 1 | 2): Promise<void> {
  await fetch(`${sitesUrl()}/__fixture/redesign`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ version }),
  });
}

/**
 * A user of the fixture sites known by one of our inboxes (a mailbox address or phone number), without a
 * password unless given. `delivery` decides what the sites' codes and links do (see Accounts.deliveryFor).
 */
export async function newInboxUser(
  username: string,
  options: { password?: string; delivery?: "ok" | "expired" | "lost" | "late" } = {},
): Promise<void> {
  const res = await fetch(`${sitesUrl()}/__fixture/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: options.password ?? "", delivery: options.delivery ?? "ok" }),
  });
  if (res.status !== 204) throw new Error(`fixture refused the user: ${res.status}`);
}

let phoneSeq = 0;
/** A fresh E.164 number in the 555 range, unique to this test process. */
export function newPhoneNumber(): string {
  return `+1415${String(process.pid % 1000).padStart(3, "0")}${String(++phoneSeq + (Date.now() % 10_000))
    .padStart(4, "0")
    .slice(-4)}`;
}

/** The session really is signed in on the fixture site: the case's account page greets the user. */
export const expectSignedIn = (page: string, cookies: Array<{ name: string; value: string }>, user: string) =>
  expectGreeted(`${sitesUrl()}/cases/${page}/account`, cookies, user);

/** The accounts the fixture signup pages created for an email or username. */
export async function siteAccounts(key: string): Promise<any[]> {
  return (
    (await (await fetch(`${sitesUrl()}/__fixture/signups/${encodeURIComponent(key)}`)).json()) as { accounts: any[] }
  ).accounts;
}
