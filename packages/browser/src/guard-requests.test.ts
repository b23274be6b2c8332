import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TargetGuard } from "@authsvc/egress";
import { chromiumPath } from "@authsvc/config";
import { BrowserHost } from "./browser-host";
import type { EgressRefusal } from "./egress-proxy";
import { guardRequests, setPersonScope } from "./guard-requests";

const chromium = chromiumPath("full");
// Private addresses the guard refuses (nothing listens there: a request that got through would hang, not answer).
const PAGES: Record<string, string> = {
  "/start": `<!doctype html><a id="out" href="http://10.255.255.1/elsewhere">out</a><a id="away" href="/redirect">away</a><a id="other" href="http://localhost:1/x">other site</a>`,
  "/pixel": `<!doctype html><img src="http://10.255.255.3/pixel.png"><p>with a pixel</p>`,
};

let site: Server;
let siteUrl: string;
const seen: string[] = [];
beforeAll(async () => {
  site = createServer((req, res) => {
    seen.push(req.url!);
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://10.255.255.2/after-redirect" }).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }).end(PAGES[req.url!] ?? "<p>plain</p>");
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

describe("guardRequests", () => {
  it("blocks and reports a refused main-frame navigation, a link's and a redirect's; other requests are the egress proxy's to refuse", async () => {
    const egressRefused: EgressRefusal[] = [];
    let pixelRefused!: () => void;
    // Resolved by the proxy's report of the pixel's refusal: the test waits for that state, not for a time.
    const pixelRefusedNow = new Promise<void>((resolve) => (pixelRefused = resolve));
    const guard = new TargetGuard(["loopback"]);
    const host = new BrowserHost({
      executablePath: chromium,
      guard,
      onEgressRefused: (r) => {
        egressRefused.push(r);
        if (r.host === "10.255.255.3") pixelRefused();
      },
    });
    try {
      await host.withPage(async (page) => {
        const refused: string[] = [];
        await guardRequests(page, guard, (url) => refused.push(url));
        await page.goto(`${siteUrl}/start`);
        // A link to a private address: blocked before it leaves, and named.
        await Promise.all([page.waitForNavigation().catch(() => undefined), page.click("#out")]);
        expect(refused).toEqual(["http://10.255.255.1/elsewhere"]);
        // The site's own redirect to one: the same.
        await page.goto(`${siteUrl}/start`);
        await Promise.all([page.waitForNavigation().catch(() => undefined), page.click("#away")]);
        expect(refused).toEqual(["http://10.255.255.1/elsewhere", "http://10.255.255.2/after-redirect"]);

        // After a cross-site navigation (another renderer process), the page's next refused link is still held.
        await page.goto(`${siteUrl.replace("127.0.0.1", "localhost")}/start`);
        await Promise.all([page.waitForNavigation().catch(() => undefined), page.click("#out")]);
        expect(refused).toHaveLength(3);
        // Watched twice (two flows' watches on one page): held once, both told.
        const second: string[] = [];
        await guardRequests(page, guard, (url) => second.push(url));
        await page.goto(`${siteUrl}/start`);
        await Promise.all([page.waitForNavigation().catch(() => undefined), page.click("#out")]);
        expect([refused.length, second]).toEqual([4, ["http://10.255.255.1/elsewhere"]]);

        // A subresource is not held in the page: the proxy refuses it (it never reaches the address).
        await page.goto(`${siteUrl}/pixel`);
        await pixelRefusedNow;
        expect(egressRefused.map((r) => r.host)).toContain("10.255.255.3");
        expect(refused).toHaveLength(4);
      });
    } finally {
      await host.close();
    }
  });

  it("keeps a person's navigations within the site while they drive: elsewhere is answered 204, the page stays", async () => {
    const guard = new TargetGuard(["loopback"]);
    const host = new BrowserHost({ executablePath: chromium, guard });
    try {
      await host.withPage(async (page) => {
        await guardRequests(page, guard, () => undefined);
        await page.goto(`${siteUrl}/start`);
        setPersonScope(page, [`${siteUrl}/start`]);
        const before = seen.length;
        const answered = page.waitForResponse((r) => r.url() === "http://localhost:1/x");
        await page.click("#other");
        // Answered 204 in the page, so no navigation commits: the page is still the site's. Its next
        // navigation in scope goes on.
        expect((await answered).status()).toBe(204);
        expect(new URL(page.url()).pathname).toBe("/start");
        await Promise.all([page.waitForNavigation(), page.evaluate((u) => (location.href = u), `${siteUrl}/pixel`)]);
        expect(seen.slice(before)).toContain("/pixel");
        setPersonScope(page, null);
      });
    } finally {
      await host.close();
    }
  });
});
