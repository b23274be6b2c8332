import { call, closeDatabase, database, newSiteUser, newTenant, sitesUrl } from "@authsvc/devstack";
import type { SeenBrowser as Seen } from "@authsvc/test-sites";

// A login page that reads the browser as sites' risk checks do (the browser-seen fixture).
let tenant: Awaited<ReturnType<typeof newTenant>>;
beforeAll(async () => {
  tenant = await newTenant("Browser profile org");
});
afterAll(() => closeDatabase());

const seenBy = async (username: string) =>
  (
    (await (await fetch(`${sitesUrl()}/__fixture/browsers-seen/${encodeURIComponent(username)}`)).json()) as {
      seen: Seen[];
    }
  ).seen;
const login = (user: { username: string; password: string }) =>
  call("POST", "/v1/login", {
    key: tenant.key,
    body: { domain: `${sitesUrl()}/cases/browser-seen/login`, login_method: "password", cred: user, useCache: false },
  });
const US_ZONES = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"];

describe("one browser per credential", () => {
  it("shows a site the same coherent browser at every login of a credential, and another one for another credential", async () => {
    const [a, b] = await Promise.all([newSiteUser(), newSiteUser()]);
    for (const user of [a, a, b]) expect((await login(user)).status).toBe(200);
    const [firstA, secondA] = await seenBy(a.username);
    const [onlyB] = await seenBy(b.username);
    expect(firstA).toBeDefined();
    // The same browser twice.
    expect(secondA).toEqual(firstA);
    // Coherent: the headers say what the scripts see; a released Chrome's user agent; a place of the default region.
    for (const seen of [firstA!, onlyB!]) {
      expect(seen.userAgentHeader).toBe(seen.userAgent);
      expect(seen.userAgent).toMatch(
        /^Mozilla\/5\.0 \(.+\) AppleWebKit\/537\.36 \(KHTML, like Gecko\) Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/,
      );
      expect(seen.userAgent).not.toContain("Headless");
      const os = seen.userAgent.includes("Windows")
        ? "Win32"
        : seen.userAgent.includes("Macintosh")
          ? "MacIntel"
          : "Linux x86_64";
      expect(seen.platform).toBe(os);
      expect(seen.acceptLanguage.split(",")[0]).toBe(seen.languages[0]);
      expect(seen.languages[0]).toBe("en-US");
      expect(US_ZONES).toContain(seen.timezone);
      expect(seen.viewport.width).toBe(seen.screen.width);
      expect(seen.viewport.height).toBeLessThan(seen.screen.height);
    }
    // Another credential of the organization is another browser.
    expect(onlyB).not.toEqual(firstA);
    // Kept with the credential: not a secret, so in the clear.
    const rows = await database().prisma.credential.findMany({
      where: { orgId: tenant.orgId },
      select: { username: true, browserProfile: true },
    });
    expect(rows.find((r) => r.username === a.username)?.browserProfile).toMatchObject({
      timezone: firstA!.timezone,
      screen: firstA!.screen,
    });
  });
});
