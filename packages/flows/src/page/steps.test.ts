import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Page, TargetGuard } from "@authsvc/browser";
import { testBrowserHost } from "../testing/browser-and-sites";
import { type FlowStep, performStep } from "./steps";

// Each control records the trusted mouse events that reached it. The page is taller than the view, one
// button sits in a scrolled container below what the container shows (its box is inside the view, where
// the page below the container is), a link wraps over two lines, and a field lies under an overlay.
const PAGE = `<!doctype html><style>body{margin:0;font:16px sans-serif}</style>
<div style="height:30px"><input id="top" name="top"></div>
<div id="box" style="height:60px;overflow:auto;border:1px solid"><div style="height:200px"></div><button id="inner">inner</button></div>
<button id="under" style="width:100%;height:400px">under the container</button>
<p style="width:120px"><a id="wrapped" href="#w">a link whose text wraps onto a second line</a></p>
<div style="position:relative"><input id="hidden-field"><div id="overlay" style="position:absolute;inset:0;background:#eee"></div></div>
<div style="height:2000px"></div>
<button id="far">far below</button>
<script>
window.log = [];
for (const el of document.querySelectorAll("button, a, input, #overlay"))
  for (const t of ["mousedown", "mouseup", "click"]) el.addEventListener(t, (e) => { if (e.isTrusted && e.target === el) log.push(el.id + ":" + t); });
</script>`;

let site: Server;
let url: string;
beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE));
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

const host = testBrowserHost({ guard: new TargetGuard(["loopback"]) });
afterAll(() => host.close());

const values = { identifier: "someone@example.test", password: "pw", additionalFields: {} };
const clickStep = (id: string): FlowStep => ({ action: "click", purpose: "submit", frame: "main", path: [`#${id}`] });
const log = (page: Page) => page.evaluate(() => (window as unknown as { log: string[] }).log.splice(0));

describe("performStep's clicks", () => {
  it("reach the element itself: below the fold, scrolled out of its container, on a wrapped link", async () => {
    await host.withPage(async (page) => {
      await page.goto(url);
      for (const id of ["inner", "wrapped", "far"]) {
        expect(await performStep(page, clickStep(id), values)).toBe(true);
        expect(await log(page)).toEqual([`${id}:mousedown`, `${id}:mouseup`, `${id}:click`]);
      }
    });
  });

  it("type into a field: a click into it first, or, under an overlay, the focus alone", async () => {
    await host.withPage(async (page) => {
      await page.goto(url);
      await page.evaluate(() => scrollTo(0, 500));
      expect(
        await performStep(page, { action: "type", value: "identifier", frame: "main", path: ["#top"] }, values),
      ).toBe(true);
      expect(await log(page)).toEqual(["top:mousedown", "top:mouseup", "top:click"]);
      expect(
        await performStep(
          page,
          { action: "type", value: "identifier", frame: "main", path: ["#hidden-field"] },
          values,
        ),
      ).toBe(true);
      expect(await log(page)).toEqual([]);
      expect(await page.$eval("#top", (el) => (el as HTMLInputElement).value)).toBe(values.identifier);
      expect(await page.$eval("#hidden-field", (el) => (el as HTMLInputElement).value)).toBe(values.identifier);
      // Typed again: what the field held is replaced.
      expect(
        await performStep(
          page,
          { action: "type", value: "identifier", frame: "main", path: ["#top"] },
          { ...values, identifier: "other" },
        ),
      ).toBe(true);
      expect(await page.$eval("#top", (el) => (el as HTMLInputElement).value)).toBe("other");
    });
  });
});
