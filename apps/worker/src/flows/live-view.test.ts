import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { BrowserHost, guardRequests, setPersonScope, TargetGuard, type Page } from "@authsvc/browser";
import { loadConfig } from "@authsvc/config";
import { testStackEnv, waitFor } from "@authsvc/devstack";
import { createLogger } from "@authsvc/logging";
import { createRedis, HandoffRelay } from "@authsvc/queue";
import { startLiveView } from "./live-view";

const USERNAME = "ada@example.test";
const PASSWORD = "Pw-LiveView-7Kq";

// A sign-in step as the hand-off shows it: the form the service filled, a "show password" control, and links
// that stay on the site or leave it.
const page = (port: number) => `<!doctype html><html><body>
<form><input id="user" name="username" size="30"><input id="pw" type="password" size="30">
<button type="button" id="show" onclick="document.getElementById('pw').type='text'">Show password</button>
<input id="code" name="code" size="8"></form>
<p><a id="stay" href="/help">Help</a> <a id="leave" href="http://localhost:${port}/elsewhere">Elsewhere</a></p></body></html>`;

let browser: BrowserHost;
let site: Server;
let port = 0;
const config = loadConfig(testStackEnv("unit_liveview"));
const publisher = createRedis(config.redis, "producer", "live-view-test");
const subscriber = createRedis(config.redis, "blocking", "live-view-test-sub");
const relay = new HandoffRelay(publisher, subscriber, `live-view-test-${process.pid}`);
const log = createLogger("live-view-test", "warn");

beforeAll(async () => {
  browser = new BrowserHost({ executablePath: config.worker.chromiumPath, guard: new TargetGuard(["loopback"]) });
  site = createServer((req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end(req.url === "/" ? page(port) : `<h1>${req.url}</h1>`),
  );
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  port = (site.address() as AddressInfo).port;
});
afterAll(async () => {
  await browser.close();
  await new Promise((resolve) => site.close(resolve));
  await Promise.all([publisher.quit(), subscriber.quit()]);
});

async function filled(p: Page): Promise<void> {
  await guardRequests(p, new TargetGuard(["loopback"]), () => undefined);
  await p.goto(`http://127.0.0.1:${port}/`, { waitUntil: "load" });
  await p.type("#user", USERNAME);
  await p.type("#pw", PASSWORD);
}

const masked = (p: Page, id: string) =>
  p.$eval(`#${id}`, (el) => getComputedStyle(el).getPropertyValue("-webkit-text-security"));

describe("the live view of a hand-off", () => {
  it("draws what the service typed as dots once someone watches, even a password a show control turns into text; what the person types is theirs", async () => {
    await browser.withPage(async (p) => {
      await filled(p);
      const view = await startLiveView(relay, "job_liveviewtest", p, log, [USERNAME, PASSWORD]);
      try {
        expect(await masked(p, "user")).toBe("none");
        await relay.publish(relay.channels("job_liveviewtest").toPage, JSON.stringify({ kind: "viewer" }));
        await waitFor("the username masked", async () => ((await masked(p, "user")) === "disc" ? true : null));
        await p.click("#show");
        expect(await p.$eval("#pw", (el) => (el as HTMLInputElement).type)).toBe("text");
        expect(await masked(p, "pw")).toBe("disc");
        await p.type("#code", "482913");
        expect(await masked(p, "code")).toBe("none");
      } finally {
        await view.close();
      }
    });
  });

  it("keeps a person who drives the page on the site: a link elsewhere does not load, one on the site does, and nothing is kept once they stopped", async () => {
    await browser.withPage(async (p) => {
      await filled(p);
      setPersonScope(p, [`http://127.0.0.1:${port}/login`, p.url()]);
      // The navigation is answered (204) without leaving: the page is where it was.
      const answered = p.waitForResponse((r) => r.url().endsWith("/elsewhere"));
      await p.click("#leave");
      expect((await answered).status()).toBe(204);
      expect(new URL(p.url()).host).toBe(`127.0.0.1:${port}`);
      expect(await p.$("#user")).not.toBeNull();
      await Promise.all([p.waitForNavigation(), p.click("#stay")]);
      expect(new URL(p.url()).pathname).toBe("/help");
      setPersonScope(p, null);
      await p.goto(`http://localhost:${port}/elsewhere`);
      expect(await p.$eval("h1", (h) => h.textContent)).toBe("/elsewhere");
    });
  });
});
