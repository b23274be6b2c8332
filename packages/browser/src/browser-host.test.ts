import { BrowserHost } from "./browser-host";
import { TargetGuard } from "@authsvc/egress";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const guard = new TargetGuard(["loopback"]);

describe("BrowserHost", () => {
  let host: BrowserHost;
  afterEach(() => host.close());

  it("gives every job a context of its own and keeps exactly one spare, however jobs overlap", async () => {
    host = new BrowserHost({ executablePath: chromium, guard });
    await host.warmUp();
    const contexts = new Set<unknown>();
    const job = (delayMs: number) =>
      new Promise((r) => setTimeout(r, delayMs)).then(() =>
        host.withPage(async (page) => {
          contexts.add(page.browserContext());
          await page.setContent("<p>job</p>");
          return page.browserContext().browser();
        }),
      );
    const browsers = await Promise.all([job(0), job(0), job(20), job(20), job(40), job(40), job(60), job(60)]);
    expect(contexts.size).toBe(8);
    await new Promise((r) => setTimeout(r, 500)); // let the last refill finish
    // The default context plus one spare: nothing leaked.
    expect(browsers[0]!.browserContexts()).toHaveLength(2);
  });

  it("starts a new Chromium after the old one died", async () => {
    const crashes: Error[] = [];
    host = new BrowserHost({ executablePath: chromium, guard, onCrash: (e) => crashes.push(e) });
    await host.warmUp();
    const first = await host.withPage(async (page) => page.browserContext().browser());
    // Let the refill finish: jest, unlike the worker, fails a test on the stealth plugin's unawaited commands.
    await new Promise((r) => setTimeout(r, 1000));
    first.process()!.kill("SIGKILL");
    await new Promise((r) => first.once("disconnected", r));
    const second = await host.withPage(async (page) => {
      await page.setContent("<p>after crash</p>");
      return page.browserContext().browser();
    });
    expect(second).not.toBe(first);
    expect(second.connected).toBe(true);
    expect(crashes).toHaveLength(1);
  });
});
