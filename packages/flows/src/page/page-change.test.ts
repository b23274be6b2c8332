import type { Page } from "@authsvc/browser";
import { frameChange } from "./page-change";
import { useBrowserAndSites } from "../testing/browser-and-sites";

const env = useBrowserAndSites();
// Longer than the test may take, so a frameChange that did not wake on the change fails by timing out too.
const FOREVER_MS = 60_000;

/** A still page that tells when a MutationObserver starts watching it (the test's hook, not the code's). */
async function stillPage(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(() => {
    const observe = MutationObserver.prototype.observe;
    MutationObserver.prototype.observe = function (
      this: MutationObserver,
      ...args: Parameters<MutationObserver["observe"]>
    ) {
      (window as unknown as { watched: boolean }).watched = true;
      return observe.apply(this, args);
    };
  });
  await page.goto(`${env.sites.url}/classic/login`);
}

const watched = async (page: Page) => {
  while (!(await page.evaluate(() => (window as unknown as { watched?: boolean }).watched === true).catch(() => false)))
    await new Promise((r) => setImmediate(r));
};

describe("frameChange", () => {
  it("returns as soon as the page draws something", async () => {
    await env.host.withPage(async (page) => {
      await stillPage(page);
      const waiting = frameChange(page, "main", FOREVER_MS);
      await watched(page);
      await page.evaluate(() =>
        document.body.append(Object.assign(document.createElement("p"), { textContent: "Try another way" })),
      );
      expect(await waiting).toBe("changed");
    });
  }, 30_000);

  it("returns as soon as the page's document goes", async () => {
    await env.host.withPage(async (page) => {
      await stillPage(page);
      const waiting = frameChange(page, "main", FOREVER_MS);
      await watched(page);
      await page.evaluate(() => {
        location.href = "/classic/login?again=1";
      });
      expect(await waiting).toBe("document gone");
    });
  }, 30_000);

  it("returns after its time on a page that does not change, and for a frame that is not there", async () => {
    await env.host.withPage(async (page) => {
      await stillPage(page);
      expect(await frameChange(page, "main", 200)).toBe("time");
      expect(await frameChange(page, "https://gone.example/frame", 200)).toBe("no frame");
    });
  }, 30_000);
});
