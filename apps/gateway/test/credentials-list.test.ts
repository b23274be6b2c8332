import { call, closeDatabase, database, newTenant } from "@authsvc/devstack";

// GET /v1/credentials: newest first by creation (credential ids are random, so their order is not the
// creation order), 100 a page, narrowed by site and username, the next page keeping the filters.
let tenant: Awaited<ReturnType<typeof newTenant>>;
const SITES = ["https://notes.example", "https://tasks.example"];
const COUNT = 160;
beforeAll(async () => {
  tenant = await newTenant("Listing org");
  const db = database();
  const base = Date.parse("2026-11-01T00:00:00Z");
  // Made one after another, a second apart, three of four on the first site: user-0 is the oldest.
  const siteOf = (i: number) => SITES[i % 4 === 3 ? 1 : 0];
  for (let i = 0; i < COUNT; i++) {
    const loginUrl = `${siteOf(i)}/login`;
    const row = await db.credentials.ensure({ orgId: tenant.orgId, loginUrl, username: `user-${i}` });
    await db.credentials.recordSuccess(tenant.orgId, row.id, { method: "password", password: `pw-${i}` }, loginUrl);
    await db.prisma.credential.update({ where: { id: row.id }, data: { createdAt: new Date(base + i * 1000) } });
  }
});
afterAll(() => closeDatabase());

const names = (body: { credentials: Array<{ username: string }> }) => body.credentials.map((c) => c.username);
const newestFirst = (indexes: number[]) => indexes.sort((a, b) => b - a).map((i) => `user-${i}`);
const all = Array.from({ length: COUNT }, (_, i) => i);

describe("GET /v1/credentials", () => {
  it("lists newest first by creation, 100 a page, and the next page goes on where the first ended", async () => {
    const first = await call("GET", "/v1/credentials", { key: tenant.key });
    expect(first.status).toBe(200);
    expect(names(first.body)).toEqual(newestFirst(all).slice(0, 100));
    expect(first.body.next).toMatch(/^\/v1\/credentials\?before=cred_/);
    const second = await call("GET", first.body.next, { key: tenant.key });
    expect(names(second.body)).toEqual(newestFirst(all).slice(100));
    expect(second.body.next).toBeNull();
  });

  it("narrows to a site (any URL of it) and to a username, and the next page keeps the filters", async () => {
    const tasks = all.filter((i) => i % 4 === 3);
    const bySite = await call("GET", `/v1/credentials?site=${encodeURIComponent(`${SITES[1]}/some/page`)}`, {
      key: tenant.key,
    });
    expect(names(bySite.body)).toEqual(newestFirst(tasks));
    expect(bySite.body.next).toBeNull();
    const one = await call("GET", "/v1/credentials?username=user-7", { key: tenant.key });
    expect(names(one.body)).toEqual(["user-7"]);
    expect(
      (await call("GET", `/v1/credentials?site=${encodeURIComponent(SITES[0]!)}&username=user-7`, { key: tenant.key }))
        .body.credentials,
    ).toEqual([]);
    // Past a page (120 on the first site): the link carries the site.
    const notes = newestFirst(all.filter((i) => i % 4 !== 3));
    const first = await call("GET", `/v1/credentials?site=${encodeURIComponent(SITES[0]!)}`, { key: tenant.key });
    expect(names(first.body)).toEqual(notes.slice(0, 100));
    expect(first.body.next).toContain(`site=${encodeURIComponent(SITES[0]!)}`);
    const second = await call("GET", first.body.next, { key: tenant.key });
    expect(names(second.body)).toEqual(notes.slice(100));
    expect(second.body.next).toBeNull();
  });

  it("refuses a query it cannot read, with the field named, and a page marker that names no credential of the org", async () => {
    const bad = async (query: string) => {
      const res = await call("GET", `/v1/credentials?${query}`, { key: tenant.key });
      return [res.status, res.body.error.code, res.body.error.details?.[0]?.field];
    };
    expect(await bad("site=not-a-url")).toEqual([400, "invalid_request", "/site"]);
    expect(await bad("site=ftp%3A%2F%2Fnotes.example")).toEqual([400, "invalid_request", "/site"]);
    expect(await bad("username=")).toEqual([400, "invalid_request", "/username"]);
    expect(await bad("username=a&username=b")).toEqual([400, "invalid_request", "/username"]);
    expect(await bad("before=nope")).toEqual([400, "invalid_request", "/before"]);
    expect(await bad("before=cred_0000000000000000000000")).toEqual([400, "invalid_request", "/before"]);
    // Another org's credential is no page marker here.
    const other = await newTenant("Other listing org");
    const mine = (await call("GET", "/v1/credentials", { key: tenant.key })).body.credentials[0].credentialId;
    const theirs = await call("GET", `/v1/credentials?before=${mine}`, { key: other.key });
    expect([theirs.status, theirs.body.error.details?.[0]?.field]).toEqual([400, "/before"]);
  });
});
