import { chromiumPath, loadConfig, type Config } from "@authsvc/config";
import { Database } from "@authsvc/db";
import { freshTestDatabase } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { AuthJobs, storedLoginIdentity } from "@authsvc/jobs";
import {
  createAuthQueue,
  createRedis,
  createWebhookQueue,
  SessionCache,
  SingleFlight,
  type AuthJobPayload,
} from "@authsvc/queue";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import type { Cookie, WebhookEvent } from "@authsvc/contracts";
import { TargetGuard } from "@authsvc/egress";
import { startTestSites, type TestSites } from "@authsvc/test-sites";
import type { Queue } from "bullmq";
import { BrowserHost } from "@authsvc/browser";
import { browserSessionCheck, keepAlive, type KeepAliveDeps } from "./keep-alive";

let config: Config;
let db: Database;
let deps: KeepAliveDeps;
let redis: ReturnType<typeof createRedis>;
let authQueue: Queue<AuthJobPayload>;
let webhookQueue: ReturnType<typeof createWebhookQueue>;
let flight: SingleFlight;
let cache: SessionCache;
let sites: TestSites;

/** The jobs room over a database whose job records cannot be written for the given credentials (as when Postgres drops the connection mid-start). */
function jobsFailingToRecord(failFor: Set<string>): AuthJobs {
  const jobLifecycle = new Proxy(db.jobLifecycle, {
    get(target, prop, receiver) {
      if (prop === "create") {
        return (job: { credentialId: string }, id?: string) =>
          failFor.has(job.credentialId)
            ? Promise.reject(new Error("connection terminated"))
            : target.create(job as never, id);
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const failing = Object.assign(Object.create(Object.getPrototypeOf(db)), db, { jobLifecycle }) as Database;
  return new AuthJobs({
    config,
    db: failing,
    authQueue,
    cache: new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing))),
    flight,
    webhookQueue,
    log: createLogger("test", "silent"),
  });
}

beforeAll(async () => {
  config = loadConfig(await freshTestDatabase("unit_keepalive", { KEEPALIVE_CHECKS_PER_RUN: "200" }));
  db = Database.fromConfig(config, 4);
  redis = createRedis(config.redis, "producer", "keep-alive-test");
  authQueue = createAuthQueue(redis, config.redis.prefix, { attempts: 1, backoffMs: 1000 });
  webhookQueue = createWebhookQueue(redis, config.redis.prefix, config.webhooks);
  flight = new SingleFlight(redis, config.redis.prefix);
  const log = createLogger("test", "silent");
  cache = new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing)));
  sites = await startTestSites();
  deps = { config, db, jobs: new AuthJobs({ config, db, authQueue, cache, flight, webhookQueue, log }), log };
});
afterAll(async () => {
  await sites.close();
  await authQueue.obliterate({ force: true });
  await Promise.all([authQueue.close(), webhookQueue.close()]);
  await redis.quit();
  await db.close();
});

const state = { cookies: [], origins: [], storageState: { cookies: [], origins: [] } };

/** A credential that logged in, with its newest session (expiring at `expiresAt`) and the job that made it. */
async function loggedIn(orgId: string, username: string, expiresAt: Date) {
  const cred = await db.credentials.ensure({ orgId, loginUrl: "https://a.test/login", username });
  await db.credentials.recordSuccess(orgId, cred.id, { method: "password", password: "pw" }, "https://a.test/login");
  const job = await db.jobLifecycle.create({
    orgId,
    credentialId: cred.id,
    kind: "login",
    method: "password",
    loginUrl: "https://a.test/login",
    fingerprint: `fp-${username}`,
    useCache: true,
    input: { kind: "login", method: "password" },
  });
  const sessionId = await db.sessions.create({
    orgId,
    credentialId: cred.id,
    origin: "https://a.test",
    state,
    expiresAt,
  });
  const { run } = (await db.jobLifecycle.claim(orgId, job.id, 1))!;
  await db.jobLifecycle.succeed(job.id, run, sessionId, "detected");
  return { credentialId: cred.id, sessionId };
}

describe("keepAlive", () => {
  it("works through every due session batch by batch, and leaves a failing credential's live session for when it ends", async () => {
    const org = await db.organizations.create("Keep-alive org");
    const soon = new Date(Date.now() + 5 * 60_000);
    // A failing credential's sessions come first in expiry order: they must not fill every batch.
    const failing = [];
    for (let i = 0; i < 110; i++) {
      const f = await loggedIn(org.id, `failing-${i}`, new Date(soon.getTime() - 60_000));
      await db.credentials.recordFailure(org.id, f.credentialId, "invalid_credentials");
      failing.push(f);
    }
    for (let i = 0; i < 130; i++) await loggedIn(org.id, `due-${i}`, soon);
    await loggedIn(org.id, "later", new Date(Date.now() + 3 * 3_600_000));

    expect(await keepAlive(deps)).toMatchObject({ refreshing: 130, expired: 0 });
    const queued = await db.prisma.authJob.findMany({
      where: { orgId: org.id, kind: "refresh" },
      select: { loginUrl: true },
    });
    expect(queued).toHaveLength(130);
    expect(new Set(queued.map((q) => q.loginUrl))).toEqual(new Set(["https://a.test/login"]));
    expect(await keepAlive(deps)).toMatchObject({ refreshing: 0, expired: 0 });
    const failingSessions = await db.prisma.session.findMany({
      where: { id: { in: failing.map((f) => f.sessionId) } },
      select: { keepaliveAt: true },
    });
    expect(failingSessions.every((s) => s.keepaliveAt === null)).toBe(true);

    // Once they end, each is reported once.
    await db.prisma.session.updateMany({
      where: { id: { in: failing.map((f) => f.sessionId) } },
      data: { expiresAt: new Date(Date.now() - 60_000) },
    });
    expect(await keepAlive(deps)).toMatchObject({ refreshing: 0, expired: 110 });
    expect(await keepAlive(deps)).toMatchObject({ refreshing: 0, expired: 0 });
  });

  it("rolls back a refresh whose start fails between claim and record: the claim is freed, no job is left, the next run starts it", async () => {
    const org = await db.organizations.create("Keep-alive roll-back org");
    const soon = new Date(Date.now() + 5 * 60_000);
    const broken = await loggedIn(org.id, "broken", soon);
    const fine = await loggedIn(org.id, "fine", soon);

    expect(await keepAlive({ ...deps, jobs: jobsFailingToRecord(new Set([broken.credentialId])) })).toMatchObject({
      refreshing: 1,
      expired: 0,
    });
    const refreshes = (credentialId: string) =>
      db.prisma.authJob.findMany({ where: { orgId: org.id, credentialId, kind: "refresh" } });
    expect(await refreshes(fine.credentialId)).toHaveLength(1);
    expect(await refreshes(broken.credentialId)).toHaveLength(0);
    // Nobody joins a job that was never recorded: the key a caller's login of that credential computes is free.
    const credential = (await db.credentials.findMetadata(org.id, broken.credentialId))!;
    const identity = storedLoginIdentity(
      { loginPage: credential.loginPage, username: credential.username },
      (await db.credentials.secret(org.id, broken.credentialId))!,
    );
    const key = deps.jobs.loginKey(org.id, identity);
    expect(await flight.claim(org.id, key, "job_caller", 60_000)).toBeNull();
    await flight.release(org.id, key, "job_caller");
    // Not marked handled: the next run tries it again and starts it.
    const session = await db.prisma.session.findUniqueOrThrow({
      where: { id: broken.sessionId },
      select: { keepaliveAt: true },
    });
    expect(session.keepaliveAt).toBeNull();
    expect(await keepAlive(deps)).toMatchObject({ refreshing: 1, expired: 0 });
    expect(await refreshes(broken.credentialId)).toHaveLength(1);
  });

  describe("the background session check", () => {
    /** Signs in on the classic fixture as a browser would: the cookies that login captured. */
    async function classicCookies(username: string): Promise<Cookie[]> {
      sites.accounts.addUser(username, "pw-1");
      const res = await fetch(`${sites.url}/classic/login`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username, password: "pw-1" }),
      });
      return res.headers.getSetCookie().map((line) => {
        const [name, value] = line.split(";")[0]!.split("=");
        return {
          name: name!,
          value: value!,
          domain: "127.0.0.1",
          path: "/",
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: "Lax" as const,
        };
      });
    }

    /** A credential of the classic site that logged in (with a stored secret unless `secret: false`), its session cached as the login left it. */
    async function signedIn(orgId: string, username: string, options: { secret?: boolean } = {}) {
      const loginUrl = `${sites.url}/classic/login`;
      const cookies = await classicCookies(username);
      const cred = await db.credentials.ensure({ orgId, loginUrl, username });
      if (options.secret !== false)
        await db.credentials.recordSuccess(orgId, cred.id, { method: "password", password: "pw-1" }, loginUrl);
      else await db.prisma.credential.update({ where: { id: cred.id }, data: { lastLoginAt: new Date() } });
      const fingerprint = `fp-check-${username}`;
      const job = await db.jobLifecycle.create({
        orgId,
        credentialId: cred.id,
        kind: "login",
        method: "password",
        loginUrl,
        fingerprint,
        useCache: true,
        input: { kind: "login", method: "password" },
      });
      const captured = {
        cookies,
        origins: [sites.url],
        storageState: { cookies, origins: [] },
        signedInPage: `${sites.url}/classic/account`,
      };
      const sessionId = await db.sessions.create({
        orgId,
        credentialId: cred.id,
        origin: sites.url,
        state: captured,
        expiresAt: new Date(Date.now() + 3_600_000),
      });
      const { run } = (await db.jobLifecycle.claim(orgId, job.id, 1))!;
      await db.jobLifecycle.succeed(job.id, run, sessionId, "detected");
      await cache.set(orgId, fingerprint, captured, 3600, Date.now() - 3_600_000);
      return { credentialId: cred.id, sessionId, fingerprint };
    }

    it("marks alive sessions checked, and ends one the site signed out: its cache entry dropped, a refresh started, or `session.expired` (revoked) when none can be", async () => {
      const org = await db.organizations.create("Session check org");
      const emitted: Array<{ type: string; data: WebhookEvent["data"] }> = [];
      const jobs = deps.jobs;
      const recording = Object.assign(Object.create(Object.getPrototypeOf(jobs)), jobs, {
        emit: (orgId: string, type: string, data: WebhookEvent["data"]) => {
          if (orgId === org.id) emitted.push({ type, data });
          return jobs.emit(orgId, type as never, data);
        },
      }) as AuthJobs;
      const checking: KeepAliveDeps = {
        ...deps,
        jobs: recording,
        checks: { guard: new TargetGuard(["loopback"]), cache },
      };
      const refreshable = await signedIn(org.id, `kept-${Date.now()}`);
      const secretless = await signedIn(org.id, `bare-${Date.now()}`, { secret: false });
      // Due once SESSION_CHECK_MAX_AGE passed since the login checked them.
      const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

      // (Counts are the whole run's: other tests' sessions are in the same database.)
      const first = await keepAlive(checking, later(10));
      expect([first.checked >= 2, first.revoked]).toEqual([true, 0]);
      const entry = await cache.get(org.id, refreshable.fingerprint);
      expect(Date.now() - entry!.checkedAt!).toBeLessThan(60_000);
      // Checked just now: not due again within the window.
      const unchanged = await cache.get(org.id, refreshable.fingerprint);
      await keepAlive(checking, later(1));
      expect((await cache.get(org.id, refreshable.fingerprint))!.checkedAt).toBe(unchanged!.checkedAt);

      for (const cred of [refreshable, secretless]) {
        const username = (await db.credentials.findMetadata(org.id, cred.credentialId))!.username;
        sites.accounts.endSessionsOf(username);
      }
      const attemptsBefore = sites.accounts.attemptsFor(
        (await db.credentials.findMetadata(org.id, refreshable.credentialId))!.username,
      );
      expect(await keepAlive(checking, later(20))).toMatchObject({ revoked: 2 });
      expect(await cache.get(org.id, refreshable.fingerprint)).toBeNull();
      expect(await cache.get(org.id, secretless.fingerprint)).toBeNull();
      const rows = await db.prisma.session.findMany({
        where: { id: { in: [refreshable.sessionId, secretless.sessionId] } },
        select: { revokedAt: true },
      });
      expect(rows.every((r) => r.revokedAt !== null)).toBe(true);
      // The refresh is a job for a worker: nothing here logged in on the site.
      expect(
        sites.accounts.attemptsFor((await db.credentials.findMetadata(org.id, refreshable.credentialId))!.username),
      ).toEqual(attemptsBefore);
      expect(
        await db.prisma.authJob.count({
          where: { credentialId: refreshable.credentialId, kind: "refresh", status: "queued" },
        }),
      ).toBe(1);

      // The next run reports the one no refresh can replace; the other waits for its refresh.
      await keepAlive(checking);
      expect(emitted).toEqual([
        {
          type: "session.expired",
          data: expect.objectContaining({ credentialId: secretless.credentialId, reason: "revoked" }),
        },
      ]);
    });

    it("checks in a browser a session a plain request cannot read (an app signed in from storage), and ends it once the site signed it out", async () => {
      const org = await db.organizations.create("Session check SPA org");
      const username = `spa-${Date.now()}`;
      sites.accounts.addUser(username, "pw-1");
      const res = await fetch(`${sites.url}/spa/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username, password: "pw-1" }),
      });
      const { token } = (await res.json()) as { token: string };
      const loginUrl = `${sites.url}/spa/login`;
      const cred = await db.credentials.ensure({ orgId: org.id, loginUrl, username });
      await db.prisma.credential.update({ where: { id: cred.id }, data: { lastLoginAt: new Date() } });
      const fingerprint = `fp-spa-${username}`;
      const job = await db.jobLifecycle.create({
        orgId: org.id,
        credentialId: cred.id,
        kind: "login",
        method: "password",
        loginUrl,
        fingerprint,
        useCache: true,
        input: { kind: "login", method: "password" },
      });
      const captured = {
        cookies: [],
        origins: [sites.url],
        storageState: {
          cookies: [],
          origins: [{ origin: sites.url, localStorage: [{ name: "spa_token", value: token }] }],
        },
        signedInPage: loginUrl,
      };
      const sessionId = await db.sessions.create({
        orgId: org.id,
        credentialId: cred.id,
        origin: sites.url,
        state: captured,
        expiresAt: new Date(Date.now() + 3_600_000),
      });
      const { run } = (await db.jobLifecycle.claim(org.id, job.id, 1))!;
      await db.jobLifecycle.succeed(job.id, run, sessionId, "detected");
      await cache.set(org.id, fingerprint, captured, 3600, 0);

      const guard = new TargetGuard(["loopback"]);
      const browser = new BrowserHost({ executablePath: chromiumPath("full"), guard });
      try {
        const checking: KeepAliveDeps = {
          ...deps,
          checks: { guard, cache, inBrowser: browserSessionCheck(browser, guard) },
        };
        await keepAlive(checking, new Date(Date.now() + 10 * 60_000));
        expect(Date.now() - (await cache.get(org.id, fingerprint))!.checkedAt!).toBeLessThan(60_000);
        expect((await db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).revokedAt).toBeNull();

        sites.accounts.endSessionsOf(username);
        await keepAlive(checking, new Date(Date.now() + 20 * 60_000));
        expect((await db.prisma.session.findUniqueOrThrow({ where: { id: sessionId } })).revokedAt).not.toBeNull();
        expect(await cache.get(org.id, fingerprint)).toBeNull();
        expect(sites.accounts.attemptsFor(username)).toEqual({ spa: 1 });

        // A session no check ever saw signed in: the login form shown again proves nothing (a site may show
        // it to everyone), so it is not ended, and nothing logs in on it.
        const unseen = await db.sessions.create({
          orgId: org.id,
          credentialId: cred.id,
          origin: sites.url,
          state: captured,
          expiresAt: new Date(Date.now() + 3_600_000),
        });
        await keepAlive(checking, new Date(Date.now() + 30 * 60_000));
        const row = await db.prisma.session.findUniqueOrThrow({ where: { id: unseen } });
        expect([row.revokedAt, row.seenAliveAt, row.lastCheckedAt !== null]).toEqual([null, null, true]);
        expect(await db.prisma.authJob.count({ where: { credentialId: cred.id, kind: "refresh" } })).toBe(0);
      } finally {
        await browser.close();
      }
    });

    it("refreshes a session about to end before the run's checks, however long they take, with sessions checked at every run (SESSION_CHECK_MAX_AGE 0)", async () => {
      const org = await db.organizations.create("Session check every run org");
      // Checked by a browser (an app signed in from storage), and not about to end.
      const username = `spa-long-${Date.now()}`;
      sites.accounts.addUser(username, "pw-1");
      const { token } = (await (
        await fetch(`${sites.url}/spa/api/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username, password: "pw-1" }),
        })
      ).json()) as { token: string };
      const loginUrl = `${sites.url}/spa/login`;
      const spa = await db.credentials.ensure({ orgId: org.id, loginUrl, username });
      await db.credentials.recordSuccess(org.id, spa.id, { method: "password", password: "pw-1" }, loginUrl);
      const spaJob = await db.jobLifecycle.create({
        orgId: org.id,
        credentialId: spa.id,
        kind: "login",
        method: "password",
        loginUrl,
        fingerprint: `fp-spa-${username}`,
        useCache: true,
        input: { kind: "login", method: "password" },
      });
      const captured = {
        cookies: [],
        origins: [sites.url],
        storageState: {
          cookies: [],
          origins: [{ origin: sites.url, localStorage: [{ name: "spa_token", value: token }] }],
        },
        signedInPage: loginUrl,
      };
      const spaSession = await db.sessions.create({
        orgId: org.id,
        credentialId: spa.id,
        origin: sites.url,
        state: captured,
        expiresAt: new Date(Date.now() + 3 * 3_600_000),
      });
      await db.jobLifecycle.succeed(
        spaJob.id,
        (await db.jobLifecycle.claim(org.id, spaJob.id, 1))!.run,
        spaSession,
        "detected",
      );
      // Ends in ten minutes, inside KEEPALIVE_BEFORE_EXPIRY_MINUTES.
      const ending = await signedIn(org.id, `ending-${Date.now()}`);
      await db.prisma.session.update({
        where: { id: ending.sessionId },
        data: { expiresAt: new Date(Date.now() + 10 * 60_000) },
      });

      // A browser check that takes as long as the test wants.
      let release = () => undefined as void;
      const held = new Promise<null>((resolve) => (release = () => resolve(null)));
      let checking = (): void => undefined;
      const checkStarted = new Promise<void>((resolve) => (checking = resolve));
      const everyRun: KeepAliveDeps = {
        ...deps,
        config: { ...deps.config, session: { ...deps.config.session, checkMaxAgeSeconds: 0 } },
        checks: { guard: new TargetGuard(["loopback"]), cache, inBrowser: () => (checking(), held) },
      };
      const run = keepAlive(everyRun);
      await checkStarted;
      // The run is in its checks: the session about to end was refreshed before them.
      expect(await db.prisma.authJob.count({ where: { credentialId: ending.credentialId, kind: "refresh" } })).toBe(1);
      release();
      expect(await run).toMatchObject({ refreshing: expect.any(Number) });
      // Refreshed, so not checked (its check is the login's own); the other one was checked by this run.
      const row = (id: string) => db.prisma.session.findUniqueOrThrow({ where: { id } });
      const refreshed = await row(ending.sessionId);
      expect([
        refreshed.keepaliveAt !== null,
        refreshed.lastCheckedAt!.getTime() <= refreshed.createdAt.getTime(),
      ]).toEqual([true, true]);
      const checked = await row(spaSession);
      expect(checked.lastCheckedAt!.getTime()).toBeGreaterThan(checked.createdAt.getTime());
    });

    it("concludes nothing, and starts nothing, when the site does not answer", async () => {
      const org = await db.organizations.create("Session check outage org");
      const cred = await signedIn(org.id, `away-${Date.now()}`);
      const away = { ...deps, checks: { guard: new TargetGuard([]), cache } };
      expect(await keepAlive(away, new Date(Date.now() + 10 * 60_000))).toMatchObject({ revoked: 0 });
      expect((await db.prisma.session.findUniqueOrThrow({ where: { id: cred.sessionId } })).revokedAt).toBeNull();
      expect(await db.prisma.authJob.count({ where: { credentialId: cred.credentialId, kind: "refresh" } })).toBe(0);
      // Still due a check before a hit serves it.
      expect((await cache.get(org.id, cred.fingerprint))!.checkedAt).toBeLessThan(Date.now() - 60_000);
    });
  });
});
