import { createServer, type ServerResponse, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { TargetGuard } from "@authsvc/browser";
import { testBrowserHost } from "../testing/browser-and-sites";
import { networkQuiet, trackRequests } from "./network-quiet";

// A page as busy applications are: a long-poll the server holds, a beacon that is never answered, an event
// stream; and an API call the test holds until it lets it go.
const PAGE = `<!doctype html><p>app</p><script>
  fetch("/long-poll");
  navigator.sendBeacon("/beacon", "x");
  new EventSource("/events");
  window.call = () => fetch("/api").then((r) => r.text());
  window.send = () => fetch("/api", { method: "POST", body: "sign-in" }).then((r) => r.text());
</script>`;

let site: Server;
let siteUrl: string;
const held: ServerResponse[] = [];
// The API calls the site has received and not answered, and who waits for the next one. The test answers a
// call once the site has it: the page's request event comes before the call has crossed the egress proxy.
const apiCalls: ServerResponse[] = [];
let apiWaiter: (() => void) | null = null;
async function answerApi(): Promise<void> {
  while (apiCalls.length === 0) await new Promise<void>((r) => (apiWaiter = r));
  apiCalls.shift()!.end("ok");
}
beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === "/") return void res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    if (req.url === "/events")
      return void res.writeHead(200, { "content-type": "text/event-stream" }).write(": open\n\n");
    if (req.url === "/api") {
      apiCalls.push(res);
      apiWaiter?.();
      return;
    }
    // The long-poll and the beacon: never answered while the test runs.
    held.push(res);
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.end();
  site.closeAllConnections();
  await new Promise<void>((r) => site.close(() => r()));
});

describe("networkQuiet", () => {
  it("waits for the page's own requests, not for beacons, event streams or long-polls", async () => {
    const host = testBrowserHost({ guard: new TargetGuard(["loopback"]) });
    try {
      await host.withPage(async (page) => {
        trackRequests(page);
        await page.goto(siteUrl, { waitUntil: "domcontentloaded" });
        // The long-poll and the beacon stay open, the stream too: quiet once the long-poll has been open a while.
        expect(await networkQuiet(page, { timeoutMs: 60_000, longMs: 500 })).toBe(true);

        // The long-poll answered (so nothing old is left in flight), an API call the page waits for: not quiet
        // while it is held (however long: longMs is far off here)…
        for (const res of held.splice(0)) res.end();
        const answered = page.evaluate(() => (window as unknown as { call: () => Promise<string> }).call());
        await page.waitForRequest((r) => r.url().endsWith("/api"));
        expect(await networkQuiet(page, { timeoutMs: 300, longMs: 60_000 })).toBe(false);
        // …and quiet once it is answered.
        await answerApi();
        expect(await answered).toBe("ok");
        expect(await networkQuiet(page, { timeoutMs: 60_000, longMs: 60_000 })).toBe(true);

        // A POST the site is slow to answer (a sign-in, a passkey's registration) is never background, however
        // long it is open: here longer than longMs, and still not quiet.
        const sent = page.evaluate(() => (window as unknown as { send: () => Promise<string> }).send());
        await page.waitForRequest((r) => r.url().endsWith("/api") && r.method() === "POST");
        expect(await networkQuiet(page, { timeoutMs: 1_000, longMs: 100 })).toBe(false);
        await answerApi();
        expect(await sent).toBe("ok");
        expect(await networkQuiet(page, { timeoutMs: 60_000, longMs: 100 })).toBe(true);
      });
    } finally {
      await host.close();
    }
  });

  it("counts every request on a page it was not watching from the start", async () => {
    const host = testBrowserHost({ guard: new TargetGuard(["loopback"]) });
    try {
      await host.withPage(async (page) => {
        await page.goto(siteUrl, { waitUntil: "domcontentloaded" });
        // The held long-poll and beacon keep Puppeteer's plain count above zero: the time runs out.
        expect(await networkQuiet(page, { timeoutMs: 300 })).toBe(false);
      });
    } finally {
      await host.close();
    }
  });
});
