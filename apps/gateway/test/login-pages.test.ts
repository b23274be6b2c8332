import { loadConfig } from "@authsvc/config";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { originFingerprint } from "@authsvc/jobs";
import { createRedis, SessionCache } from "@authsvc/queue";
import type { PathApp } from "@authsvc/test-sites";
import { attempts, call, closeDatabase, database, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";

// Two applications under two paths of one origin, one user directory: a session, a job and a credential
// belong to the login page, never to the whole origin.
let tenant: Awaited<ReturnType<typeof newTenant>>;
const config = loadConfig();
const redis = createRedis(config.redis, "producer", "login-pages-test");
const cache = new SessionCache(
  redis,
  config.redis.prefix,
  new Envelope(parseKeyRing(config.crypto.keyRing, config.crypto.activeKeyVersion)),
);
beforeAll(async () => {
  tenant = await newTenant("Login pages org");
});
afterAll(async () => {
  redis.disconnect();
  await closeDatabase();
});

const loginUrl = (app: PathApp) => `${sitesUrl()}/apps/${app}/login`;
const login = (app: PathApp, user: { username: string; password: string }, extra: Record<string, unknown> = {}) =>
  call("POST", "/v1/login", {
    key: tenant.key,
    body: { domain: loginUrl(app), login_method: "password", cred: user, ...extra },
  });

/** The app a session's cookie signs in to, asked of each app's signed-in page as a browser would send it. */
async function signsInTo(cookies: Array<{ name: string; value: string; path: string }>): Promise<PathApp[]> {
  const apps: PathApp[] = [];
  for (const app of ["tracker", "wiki"] as const) {
    const header = cookies
      .filter((c) => `/apps/${app}/home`.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    const res = await fetch(`${sitesUrl()}/apps/${app}/home`, { headers: { cookie: header }, redirect: "manual" });
    if (res.status === 200) apps.push(app);
  }
  return apps;
}

describe("one session per login page", () => {
  it("never serves one application's cached session for another on the same origin", async () => {
    const user = await newSiteUser("shared-directory-1");
    const tracker = await login("tracker", user);
    expect([tracker.status, tracker.headers.get("x-auth-cache")]).toEqual([200, "miss"]);
    expect(await signsInTo(tracker.body.cookies)).toEqual(["tracker"]);

    const wiki = await login("wiki", user);
    expect([wiki.status, wiki.headers.get("x-auth-cache")]).toEqual([200, "miss"]);
    expect(await signsInTo(wiki.body.cookies)).toEqual(["wiki"]);

    // Each page's cache answers with its own session; a query string names the same page.
    const again = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: `${loginUrl("wiki")}?next=%2Fapps%2Fwiki%2Fhome`, login_method: "password", cred: user },
    });
    expect([again.status, again.headers.get("x-auth-cache")]).toEqual([200, "hit"]);
    expect(again.body).toEqual(wiki.body);
    expect((await login("tracker", user)).body).toEqual(tracker.body);
    expect(await attempts(user.username)).toEqual({ "apps-tracker": 1, "apps-wiki": 1 });

    const credentials = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials.filter(
      (c: any) => c.username === user.username,
    );
    expect(credentials.map((c: any) => c.loginPage).sort()).toEqual([loginUrl("tracker"), loginUrl("wiki")]);
  });

  it("runs concurrent auth on two login pages as two jobs, each answering its own page's session", async () => {
    const user = await newSiteUser("shared-directory-2");
    const [tracker, wiki] = await Promise.all([login("tracker", user), login("wiki", user)]);
    expect([tracker.status, wiki.status]).toEqual([200, 200]);
    expect(await signsInTo(tracker.body.cookies)).toEqual(["tracker"]);
    expect(await signsInTo(wiki.body.cookies)).toEqual(["wiki"]);
    expect(await attempts(user.username)).toEqual({ "apps-tracker": 1, "apps-wiki": 1 });
  });

  it("refreshes the credential of the login page named by domain, and asks which one when a bare origin names two", async () => {
    const user = await newSiteUser("shared-directory-3");
    expect((await login("tracker", user)).status).toBe(200);
    expect((await login("wiki", user)).status).toBe(200);

    const refreshed = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { domain: loginUrl("wiki"), username: user.username },
    });
    expect(refreshed.status).toBe(200);
    expect(await signsInTo(refreshed.body.cookies)).toEqual(["wiki"]);
    expect(await attempts(user.username)).toEqual({ "apps-tracker": 1, "apps-wiki": 2 });
    // The refreshed session is what the next login on that page is served.
    const next = await login("wiki", user);
    expect([next.headers.get("x-auth-cache"), next.body.cookies]).toEqual(["hit", refreshed.body.cookies]);

    const ambiguous = await call("POST", "/v1/refresh", {
      key: tenant.key,
      body: { domain: sitesUrl(), username: user.username },
    });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error.code).toBe("conflict");
    expect(ambiguous.body.error.message).toContain(loginUrl("wiki"));
    expect(await attempts(user.username)).toEqual({ "apps-tracker": 1, "apps-wiki": 2 });
  });

  it("keeps serving a session cached under the origin's key before this change, but only to the page that made it", async () => {
    const own = await newTenant("Login pages legacy org");
    const user = await newSiteUser("shared-directory-4");
    const body = (app: PathApp) => ({ domain: loginUrl(app), login_method: "password", cred: user });
    const tracker = await call("POST", "/v1/login", { key: own.key, body: body("tracker") });
    expect(tracker.status).toBe(200);
    // As the previous release left it: the session cached under the origin's key, its job recorded under it.
    const identity = {
      loginPage: loginUrl("tracker"),
      method: "password",
      identifier: user.username,
      password: user.password,
    };
    const legacy = originFingerprint(config.crypto.fingerprintKey, own.orgId, identity);
    await database().prisma.authJob.update({
      where: { id: tracker.headers.get("x-job-id")! },
      data: { fingerprint: legacy },
    });
    const keys = await redis.keys(cache.key(own.orgId, "*"));
    expect(keys).toHaveLength(1);
    await redis.del(...keys);
    await cache.set(own.orgId, legacy, tracker.body, 600);

    const wiki = await call("POST", "/v1/login", { key: own.key, body: body("wiki") });
    expect([wiki.status, wiki.headers.get("x-auth-cache")]).toEqual([200, "miss"]);
    expect(await signsInTo(wiki.body.cookies)).toEqual(["wiki"]);

    const served = await call("POST", "/v1/login", { key: own.key, body: body("tracker") });
    expect([served.status, served.headers.get("x-auth-cache")]).toEqual([200, "hit"]);
    expect(served.body).toEqual(tracker.body);
    expect(await attempts(user.username)).toEqual({ "apps-tracker": 1, "apps-wiki": 1 });
  });
});
