import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Envelope, parseKeyRing } from "@authsvc/crypto";
import { TargetGuard } from "@authsvc/egress";
import { createLogger } from "@authsvc/logging";
import { SessionCache, SingleFlight, createWebhookQueue } from "@authsvc/queue";
import type { CapturedSession } from "@authsvc/contracts";
import { AuthJobs } from "./auth-jobs";
import { loginFingerprint } from "./session-keys";
import { useJobsEnv } from "./testing/jobs-env";

const env = useJobsEnv("unit_cached_session", { attempts: 1, backoffMs: 1000 });
let site: Server;
let siteUrl: string;
let accountViews = 0;
let signedOut = false;

beforeAll(async () => {
  // A site whose account page shows a sign-out link to its session, and sends anyone else to its login page.
  site = createServer((req, res) => {
    if (req.url === "/account") {
      accountViews++;
      if (signedOut || !/sid=live/.test(req.headers.cookie ?? ""))
        return res.writeHead(302, { location: "/login" }).end();
      return res.writeHead(200, { "content-type": "text/html" }).end('<h1>Hello</h1><a href="/logout">Sign out</a>');
    }
    res
      .writeHead(200, { "content-type": "text/html" })
      .end('<form><input name="u"><input type="password" name="p"></form>');
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => site.close(resolve)));

describe("cachedSession", () => {
  it("checks an entry due a check once for a burst of hits, serves it while alive, and stops serving it once the site signed it out", async () => {
    const { config, db, redis, authQueue } = env;
    const cache = new SessionCache(redis, config.redis.prefix, new Envelope(parseKeyRing(config.crypto.keyRing)));
    const jobs = new AuthJobs({
      config,
      db,
      authQueue,
      cache,
      flight: new SingleFlight(redis, config.redis.prefix),
      webhookQueue: createWebhookQueue(redis, config.redis.prefix, config.webhooks),
      log: createLogger("test", "silent"),
      guard: new TargetGuard(["loopback"]),
    });
    const login = { loginPage: `${siteUrl}/login`, method: "password", identifier: "ada", password: "pw" };
    const cookies = [
      {
        name: "sid",
        value: "live",
        domain: "127.0.0.1",
        path: "/",
        expires: -1,
        httpOnly: true,
        secure: false,
        sameSite: "Lax" as const,
      },
    ];
    const captured: CapturedSession = {
      cookies,
      origins: [siteUrl],
      storageState: { cookies, origins: [] },
      signedInPage: `${siteUrl}/account`,
    };
    await cache.set("org_burst", loginFingerprint(config.crypto.fingerprintKey, "org_burst", login), captured, 600, 0);

    const hits = await Promise.all(Array.from({ length: 8 }, () => jobs.cachedSession("org_burst", login)));
    expect(hits.every((h) => h?.cookies[0]?.value === "live")).toBe(true);
    expect(accountViews).toBe(1);
    // Checked now: served without asking the site again.
    expect(await jobs.cachedSession("org_burst", login)).not.toBeNull();
    expect(accountViews).toBe(1);

    // Signed out by the site, and due a check again: not served, and dropped.
    signedOut = true;
    await cache.set("org_burst", loginFingerprint(config.crypto.fingerprintKey, "org_burst", login), captured, 600, 0);
    expect(await Promise.all([jobs.cachedSession("org_burst", login), jobs.cachedSession("org_burst", login)])).toEqual(
      [null, null],
    );
    expect(accountViews).toBe(2);
    expect(await cache.get("org_burst", loginFingerprint(config.crypto.fingerprintKey, "org_burst", login))).toBeNull();
  });
});
