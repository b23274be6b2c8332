import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromiumPath } from "@authsvc/config";
import { addExtra } from "puppeteer-extra";
import StealthPlugin from "puppeteer-extra-plugin-stealth";
import * as puppeteerCore from "puppeteer-core";
import type { Browser, Page } from "puppeteer-core";
import { CHROMIUM_ARGS } from "./launch-chromium";
import { oneScript, STEALTH_EVASIONS, StealthInOneScript } from "./stealth";

// What a page (and a frame inside it) can read of the browser that the evasions change.
const FINGERPRINT = `(() => {
  const frame = document.createElement("iframe");
  frame.srcdoc = "<p>frame</p>";
  document.body.appendChild(frame);
  const gl = document.createElement("canvas").getContext("webgl");
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  return {
    webdriver: navigator.webdriver,
    chrome: Object.keys(window.chrome ?? {}).sort(),
    csi: typeof window.chrome?.csi,
    plugins: [...navigator.plugins].map((p) => p.name),
    mimeTypes: navigator.mimeTypes.length,
    vendor: navigator.vendor,
    hardwareConcurrency: navigator.hardwareConcurrency,
    permissionsQuery: Function.prototype.toString.call(navigator.permissions.query),
    toStringItself: Function.prototype.toString.toString(),
    userAgent: navigator.userAgent,
    brands: navigator.userAgentData?.brands.map((b) => b.brand),
    webgl: [gl.getParameter(info.UNMASKED_VENDOR_WEBGL), gl.getParameter(info.UNMASKED_RENDERER_WEBGL)],
    h264: document.createElement("video").canPlayType('video/mp4; codecs="avc1.42E01E"'),
    outer: [window.outerWidth, window.outerHeight],
    frame: { chrome: typeof frame.contentWindow.chrome, webdriver: frame.contentWindow.navigator.webdriver, plugins: frame.contentWindow.navigator.plugins.length },
  };
})()`;

let server: http.Server;
let url: string;
const browsers: Browser[] = [];

beforeAll(async () => {
  server = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><body><p>page</p></body>"),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  await new Promise((resolve) => server.close(resolve));
});

async function pageOf(plugin: Parameters<ReturnType<typeof addExtra>["use"]>[0]): Promise<Page> {
  const puppeteer = addExtra(puppeteerCore as unknown as Parameters<typeof addExtra>[0]);
  puppeteer.use(plugin);
  const browser = (await puppeteer.launch({
    executablePath: chromiumPath("full"),
    headless: true,
    args: [...CHROMIUM_ARGS],
    defaultViewport: { width: 1280, height: 900 },
  })) as unknown as Browser;
  browsers.push(browser);
  const page = await (await browser.createBrowserContext()).newPage();
  await page.evaluate("0"); // as BrowserHost hands a page over: after the set-up commands landed
  return page;
}

describe("StealthInOneScript", () => {
  it("shows pages and their frames the same browser as the stealth plugin's separate evasions, with one script", async () => {
    const separate = StealthPlugin();
    separate.enabledEvasions = new Set(STEALTH_EVASIONS);
    const [theirs, ours] = await Promise.all([pageOf(separate), pageOf(new StealthInOneScript())]);
    const seen = await Promise.all(
      [theirs, ours].map(async (page) => {
        await page.goto(url);
        return page.evaluate(FINGERPRINT);
      }),
    );
    expect(seen[1]).toEqual(seen[0]);
    // Chromium numbers a page's new-document scripts in order: the next after the set-up tells how many it had.
    const scriptsBefore = async (page: Page) => Number((await page.evaluateOnNewDocument("0")).identifier) - 1;
    const puppeteers = await scriptsBefore(await pageOf(new StealthInOneScript([])));
    expect(await scriptsBefore(ours)).toBe(puppeteers + 1);
    expect(await scriptsBefore(theirs)).toBeGreaterThan(puppeteers + 10);
    // And the evasions did act: a headless Chromium has no plugins and no window.chrome.csi of its own.
    expect(seen[1]).toMatchObject({
      webdriver: false,
      csi: "function",
      permissionsQuery: "function query() { [native code] }",
      frame: { chrome: "object", webdriver: false },
    });
    expect((seen[1] as { plugins: string[] }).plugins.length).toBeGreaterThan(0);
    expect((seen[1] as { userAgent: string }).userAgent).not.toContain("Headless");
  });

  it("runs every part of the script even when one throws, as separate scripts would", async () => {
    const page = await pageOf(new StealthInOneScript([]));
    await page.evaluateOnNewDocument(
      oneScript([
        { fn: "() => { throw new Error('an evasion that fails') }", args: [] },
        { fn: "(value) => { window.seen = value }", args: [7] },
      ]),
    );
    await page.goto(url);
    expect(await page.evaluate("window.seen")).toBe(7);
  });
});
