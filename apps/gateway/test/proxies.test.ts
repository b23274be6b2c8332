import { newTotpSecret } from "@authsvc/crypto";
import { call, closeDatabase, database, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";
import { type FixtureProxies, PROXY_PASSWORD, startFixtureProxies } from "@authsvc/test-sites";

// Two proxies of the kind agent platforms rent, each leaving from its own loopback address (HTTP from
// 127.0.0.2, SOCKS5 from 127.0.0.3), and a site that asks its second factor of every new device or address.
let tenant: Awaited<ReturnType<typeof newTenant>>;
let proxies: FixtureProxies;
beforeAll(async () => {
  [tenant, proxies] = await Promise.all([newTenant("Proxy org"), startFixtureProxies()]);
});
afterAll(async () => {
  await proxies.close();
  await closeDatabase();
});

const addProxy = (body: Record<string, unknown>, key = tenant.key) => call("POST", "/v1/proxies", { key, body });
const loginUrl = () => `${sitesUrl()}/cases/trusted-device/login`;
// How often the site asked its second factor, and the address of each login post.
const seenBySite = async (username: string) => {
  const { prompts, addresses } = (await (
    await fetch(`${sitesUrl()}/__fixture/device-prompts/${encodeURIComponent(username)}`)
  ).json()) as { prompts: number; addresses: string[] };
  return { prompts, addresses };
};
const credentialOf = async (username: string) =>
  (
    (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials as Array<{
      credentialId: string;
      username: string;
    }>
  ).find((c) => c.username === username)!.credentialId;
const keptProxy = async (credentialId: string) =>
  (await database().prisma.credential.findUniqueOrThrow({ where: { id: credentialId }, select: { proxyId: true } }))
    .proxyId;

describe("egress proxies", () => {
  it("are added with their credentials kept encrypted and never shown again, on the operator's allow-list only", async () => {
    const created = await addProxy({ url: proxies.http.url, label: "residential", region: "eu" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^prx_/),
      address: proxies.http.url.replace(/\/\/[^@]+@/, "//"),
      label: "residential",
      region: "eu",
      createdAt: expect.any(String),
    });
    const listed = await call("GET", "/v1/proxies", { key: tenant.key });
    expect(listed.body.proxies).toContainEqual(created.body);
    expect(JSON.stringify(listed.body)).not.toContain(PROXY_PASSWORD);
    const row = await database().prisma.proxy.findUniqueOrThrow({
      where: { id: created.body.id },
      select: { url: true },
    });
    expect(row.url).not.toContain(PROXY_PASSWORD);

    // Not on the allow-list (EGRESS_PROXY_ALLOW is 127.0.0.1 here), not a proxy URL, not this org's.
    const outside = await addProxy({ url: "http://u:p@10.1.2.3:3128" });
    expect([outside.status, outside.body.error.code]).toEqual([422, "target_not_allowed"]);
    expect(JSON.stringify(outside.body)).not.toContain("u:p");
    for (const url of ["ftp://proxy:21", "http://127.0.0.1", "http://127.0.0.1:3128/path"])
      expect([url, (await addProxy({ url })).status]).toEqual([url, 400]);
    const other = await newTenant("Not the proxy's org");
    expect((await call("DELETE", `/v1/proxies/${created.body.id}`, { key: other.key })).status).toBe(404);
    const unknown = await call("POST", "/v1/login", {
      key: other.key,
      body: {
        domain: loginUrl(),
        login_method: "password",
        cred: { username: "x", password: "y" },
        proxy: created.body.id,
      },
    });
    expect([unknown.status, unknown.body.error.details[0].field]).toEqual([400, "/proxy"]);
  });

  it("carry a credential's logins and refreshes from the proxy it first signed in through: the site asks its second factor once per device and address", async () => {
    const http = (await addProxy({ url: proxies.http.url, region: "eu" })).body.id as string;
    const socks = (await addProxy({ url: proxies.socks5.url })).body.id as string;
    const totpSecret = newTotpSecret();
    const user = await newSiteUser(undefined, { totpSecret });
    const login = (extra: Record<string, unknown> = {}) =>
      call("POST", "/v1/login", {
        key: tenant.key,
        body: {
          domain: loginUrl(),
          login_method: "password",
          cred: { ...user, totpSecret },
          useCache: false,
          ...extra,
        },
      });

    expect((await login({ proxy: http })).status).toBe(200);
    const credentialId = await credentialOf(user.username);
    expect(await keptProxy(credentialId)).toBe(http);
    // Kept: the next login and a refresh name no proxy, and leave through the same one.
    expect((await login()).status).toBe(200);
    expect((await call("POST", "/v1/refresh", { key: tenant.key, body: { credentialId } })).status).toBe(200);
    expect(await seenBySite(user.username)).toEqual({ prompts: 1, addresses: ["127.0.0.2", "127.0.0.2", "127.0.0.2"] });
    // The credential's browser is one of the proxy's region.
    const profile = (
      await database().prisma.credential.findUniqueOrThrow({
        where: { id: credentialId },
        select: { browserProfile: true },
      })
    ).browserProfile as { timezone: string };
    expect(profile.timezone).toMatch(/^Europe\//);

    // Moved to another proxy: a new address to the site, which asks again, once.
    expect((await login({ proxy: socks })).status).toBe(200);
    expect((await login()).status).toBe(200);
    expect(await seenBySite(user.username)).toEqual({
      prompts: 2,
      addresses: ["127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.3", "127.0.0.3"],
    });

    // The proxy deleted: the credential leaves directly again.
    expect((await call("DELETE", `/v1/proxies/${socks}`, { key: tenant.key })).status).toBe(204);
    expect(await keptProxy(credentialId)).toBeNull();
  });

  it("keep each new credential on one member of a pool", async () => {
    const members = [
      (await addProxy({ url: proxies.http.url, label: "pool-a" })).body.id,
      (await addProxy({ url: proxies.socks5.url, label: "pool-a" })).body.id,
    ];
    const users = await Promise.all([newSiteUser(), newSiteUser()]);
    const login = (user: { username: string; password: string }) =>
      call("POST", "/v1/login", {
        key: tenant.key,
        body: {
          domain: `${sitesUrl()}/cases/browser-seen/login`,
          login_method: "password",
          cred: user,
          useCache: false,
          proxyPool: "pool-a",
        },
      });
    for (const user of users) expect((await login(user)).status).toBe(200);
    const kept = await Promise.all(users.map(async (u) => keptProxy(await credentialOf(u.username))));
    // One member each (the least used first), and the same one again at the next login.
    expect(new Set(kept)).toEqual(new Set(members));
    for (const user of users) expect((await login(user)).status).toBe(200);
    expect(await Promise.all(users.map(async (u) => keptProxy(await credentialOf(u.username))))).toEqual(kept);
    const missing = await call("POST", "/v1/login", {
      key: tenant.key,
      body: { domain: loginUrl(), login_method: "password", cred: users[0], proxyPool: "no-such-pool" },
    });
    expect([missing.status, missing.body.error.details[0].field]).toEqual([400, "/proxyPool"]);
  });

  it("move a credential's browser to the proxy's region: a site that checks time zone and language against the address lets both logins in", async () => {
    const eu = (await addProxy({ url: proxies.http.url, region: "eu" })).body.id as string;
    const user = await newSiteUser();
    const login = (extra: Record<string, unknown> = {}) =>
      call("POST", "/v1/login", {
        key: tenant.key,
        body: {
          domain: `${sitesUrl()}/cases/region-check/login`,
          login_method: "password",
          cred: user,
          useCache: false,
          ...extra,
        },
      });
    const refusals = async () =>
      ((await (await fetch(`${sitesUrl()}/__fixture/region-refusals`)).json()) as { refusals: number }).refusals;
    const before = await refusals();
    // Directly (an American address here): the default region's browser.
    expect((await login()).status).toBe(200);
    const credentialId = await credentialOf(user.username);
    const zoneOf = async () =>
      (
        await database().prisma.credential.findUniqueOrThrow({
          where: { id: credentialId },
          select: { browserProfile: true },
        })
      ).browserProfile as { timezone: string; screen: unknown };
    const first = await zoneOf();
    expect(first.timezone).toMatch(/^America\//);
    // Moved to the European proxy: the same screen, a European time zone and language.
    expect((await login({ proxy: eu })).status).toBe(200);
    const moved = await zoneOf();
    expect(moved.timezone).toMatch(/^Europe\//);
    expect(moved.screen).toEqual(first.screen);
    expect(await refusals()).toBe(before);
  });

  it("a proxy that refuses its credentials is proxy_auth_failed, and the site never saw the password", async () => {
    const wrong = (await addProxy({ url: proxies.http.url.replace(PROXY_PASSWORD, "not-the-password") })).body
      .id as string;
    const user = await newSiteUser();
    const res = await call("POST", "/v1/login", {
      key: tenant.key,
      body: {
        domain: `${sitesUrl()}/cases/browser-seen/login`,
        login_method: "password",
        cred: user,
        useCache: false,
        proxy: wrong,
      },
    });
    expect([res.status, res.body.error.code]).toEqual([502, "proxy_auth_failed"]);
    expect(res.body.error.message).not.toContain("not-the-password");
    expect(await (await fetch(`${sitesUrl()}/__fixture/attempts/${encodeURIComponent(user.username)}`)).json()).toEqual(
      {},
    );
  });
});
