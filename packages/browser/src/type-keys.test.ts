import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TargetGuard } from "@authsvc/egress";
import { chromiumPath } from "@authsvc/config";
import { BrowserHost } from "./browser-host";
import type { Frame, Page } from "puppeteer-core";
import { typeKeys } from "./type-keys";

const chromium = chromiumPath("full");

// Fields whose page listens to every key event: a controlled one that rewrites its value on each input (as a
// framework's does), and one that moves the focus on after three characters (code boxes), so what the page
// records depends on each event being handled before the next.
const FORM = `<!doctype html><input id="a"><input id="b"><input id="c"><script>
window.log = [];
for (const el of document.querySelectorAll("input"))
  for (const t of ["keydown", "keypress", "beforeinput", "input", "keyup"])
    el.addEventListener(t, (e) => log.push([el.id, t, e.key ?? e.data, e.code, e.keyCode, el.value].join("|")));
const a = document.getElementById("a");
a.addEventListener("input", () => { a.value = a.value.toUpperCase(); });
const b = document.getElementById("b");
b.addEventListener("input", () => { if (b.value.length === 3) document.getElementById("c").focus(); });
</script>`;

let site: Server;
let port: number;
beforeAll(async () => {
  site = createServer((req, res) => {
    const body =
      req.url === "/outer" ? `<!doctype html><p>outer</p><iframe src="http://localhost:${port}/form"></iframe>` : FORM;
    res.writeHead(200, { "content-type": "text/html" }).end(body);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  port = (site.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

const TEXT = "Jö-ß 1!@#\"'`~$%^&*()_+=[]{};:,.<>/?\\|Ω界 x@example.test";

/** What the page recorded for typing TEXT into a, then into b (which passes the focus on to c). */
async function record(page: Page, frame: Frame, type: (text: string) => Promise<void>): Promise<string[]> {
  await frame.evaluate(() => {
    for (const el of document.querySelectorAll("input")) el.value = "";
    (window as unknown as { log: string[] }).log = [];
  });
  for (const id of ["a", "b"]) {
    await frame.focus(`#${id}`);
    await type(TEXT);
  }
  return frame.evaluate(() => (window as unknown as { log: string[] }).log);
}

describe("typeKeys", () => {
  const host = new BrowserHost({ executablePath: chromium, guard: new TargetGuard(["loopback"]) });
  afterAll(() => host.close());

  it("gives the page the same events, in the same order, as Puppeteer's keyboard.type", async () => {
    await host.withPage(async (page) => {
      await page.goto(`http://127.0.0.1:${port}/form`);
      const puppeteers = await record(page, page.mainFrame(), (t) => page.keyboard.type(t));
      const ours = await record(page, page.mainFrame(), (t) => typeKeys(page, t));
      expect(puppeteers.length).toBeGreaterThan(TEXT.length * 4);
      expect(ours).toEqual(puppeteers);
      expect(await page.$eval("#a", (el) => (el as HTMLInputElement).value)).toBe(TEXT.toUpperCase());
      expect(await page.$eval("#c", (el) => (el as HTMLInputElement).value)).toBe(TEXT.slice(3));
    });
  });

  it("types into a field of a cross-origin frame (another renderer) the same way", async () => {
    await host.withPage(async (page) => {
      await page.goto(`http://127.0.0.1:${port}/outer`);
      const frame = (await (await page.waitForSelector("iframe"))!.contentFrame())!;
      await frame.waitForSelector("#a");
      const puppeteers = await record(page, frame, (t) => page.keyboard.type(t));
      const ours = await record(page, frame, (t) => typeKeys(page, t));
      expect(ours).toEqual(puppeteers);
      expect(await frame.$eval("#a", (el) => (el as HTMLInputElement).value)).toBe(TEXT.toUpperCase());
    });
  });

  it("rejects when its page is gone, whether its DevTools session was open or not", async () => {
    await host.withPage(async (page) => {
      await page.goto(`http://127.0.0.1:${port}/form`);
      await page.focus("#a");
      await typeKeys(page, "x");
      await page.close();
      await expect(typeKeys(page, TEXT)).rejects.toThrow();
    });
    await host.withPage(async (page) => {
      await page.close();
      await expect(typeKeys(page, TEXT)).rejects.toThrow();
    });
  });
});
