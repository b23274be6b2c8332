import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TargetGuard } from "@authsvc/egress";
import { chromiumPath } from "@authsvc/config";
import { BrowserHost } from "./browser-host";
import { openPage, preparePagesLike, preparePagesOf } from "./page-preparer";

const chromium = chromiumPath("full");

// The site notes the user agent of every request: a page prepared after its first request would show there.
let site: Server;
let url: string;
const agents: string[] = [];
beforeAll(async () => {
  site = createServer((req, res) => {
    // The page's own requests (the browser may ask for /favicon.ico beside them, whenever it likes).
    if (req.url === "/") agents.push(req.headers["user-agent"] ?? "");
    res.writeHead(200, { "content-type": "text/html" }).end("<p>page</p>");
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

describe("openPage", () => {
  const host = new BrowserHost({ executablePath: chromium, guard: new TargetGuard(["loopback"]) });
  afterAll(() => host.close());

  it("gives every further page of a context, and of a context made like it, what its first page got, before it loads anything", async () => {
    await host.withPage(async (page) => {
      const context = page.browserContext();
      preparePagesOf(context, (p) => p.setUserAgent("Prepared/1.0"));
      const second = await openPage(context);
      agents.length = 0;
      await second.goto(url);
      expect(agents).toEqual(["Prepared/1.0"]);
      expect(await second.evaluate(() => navigator.userAgent)).toBe("Prepared/1.0");

      const other = await page.browser().createBrowserContext();
      try {
        preparePagesLike(other, context);
        const look = await openPage(other);
        agents.length = 0;
        await look.goto(url);
        expect(agents).toEqual(["Prepared/1.0"]);
      } finally {
        await other.close();
      }
    });
  });

  it("opens a plain page in a context nobody prepared, and closes a page whose preparation failed", async () => {
    await host.withPage(async (page) => {
      const plain = await openPage(page.browserContext());
      agents.length = 0;
      await plain.goto(url);
      expect(agents[0]).not.toBe("Prepared/1.0");
      await plain.close();

      preparePagesOf(page.browserContext(), async () => {
        throw new Error("no profile");
      });
      const before = (await page.browserContext().pages()).length;
      await expect(openPage(page.browserContext())).rejects.toThrow("no profile");
      expect((await page.browserContext().pages()).length).toBe(before);
    });
  });
});
