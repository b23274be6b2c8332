import { Deadline } from "../deadline";
import { trackRequests } from "./network-quiet";
import { watchPage } from "./watch-page";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";

const env = useBrowserAndSites();
// Far longer than the test may take: a watch that returns at all with this pause woke on the page's change.
const FOREVER_MS = 60_000;

describe("watchPage", () => {
  it("looks again as soon as the page draws something, and takes the verdict from that look", async () => {
    await env.host.withPage(async (page) => {
      // The page draws its answer once something watches it for changes (the test's hook: a change that
      // comes after the watch began waiting, without a clock).
      await page.evaluateOnNewDocument(() => {
        const observe = MutationObserver.prototype.observe;
        MutationObserver.prototype.observe = function (
          this: MutationObserver,
          ...args: Parameters<MutationObserver["observe"]>
        ) {
          observe.apply(this, args);
          if (!(window as unknown as { drawOnWatch?: boolean }).drawOnWatch) return;
          setTimeout(() =>
            document.body.append(
              Object.assign(document.createElement("p"), { className: "answer", textContent: "Welcome" }),
            ),
          );
        };
      });
      await page.goto(`${env.sites.url}/classic/login`);
      let looks = 0;
      const verdict = await watchPage(page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        lookEveryMs: FOREVER_MS,
        read: async () => {
          looks++;
          return page.evaluate(() => document.querySelector("p.answer")?.textContent ?? null);
        },
        decide: async (answer) => {
          if (answer) return { verdict: answer };
          await page.evaluate(() => ((window as unknown as { drawOnWatch?: boolean }).drawOnWatch = true));
          return "wait";
        },
        timeUp: () => "time up",
      });
      expect(verdict).toBe("Welcome");
      expect(looks).toBe(2);
    });
  }, 30_000);

  it("looks again as soon as the page goes to another document", async () => {
    await env.host.withPage(async (page) => {
      await page.goto(`${env.sites.url}/classic/login`);
      const verdict = await watchPage(page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        lookEveryMs: FOREVER_MS,
        read: async () => page.url(),
        decide: async (url) => {
          if (url.includes("again=1")) return { verdict: url };
          await page.evaluate(() => {
            location.href = "/classic/login?again=1";
          });
          return "wait";
        },
        timeUp: () => "time up",
      });
      expect(verdict).toContain("again=1");
    });
  }, 30_000);

  it("looks again at once after the flow acted on the page", async () => {
    await env.host.withPage(async (page) => {
      await page.goto(`${env.sites.url}/classic/login`);
      let looks = 0;
      const verdict = await watchPage(page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        quiet: false,
        lookEveryMs: FOREVER_MS,
        read: async () => ++looks,
        decide: (n) => (n === 1 ? "again" : { verdict: n }),
        timeUp: () => 0,
      });
      expect(verdict).toBe(2);
    });
  }, 30_000);

  it("gives the time-up verdict the last look, on a page that never shows the answer", async () => {
    await env.host.withPage(async (page) => {
      await page.goto(`${env.sites.url}/classic/login`);
      let looks = 0;
      const verdict = await watchPage(page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        ms: 400,
        read: async () => ++looks,
        decide: () => "wait",
        timeUp: (last) => `gave up after look ${last}`,
      });
      expect(looks).toBeGreaterThan(0);
      expect(verdict).toBe(`gave up after look ${looks}`);
    });
  }, 30_000);

  it("starts no look once the time is over when the clock is read before each look", async () => {
    await env.host.withPage(async (page) => {
      await page.goto(`${env.sites.url}/classic/login`);
      let looks = 0;
      const verdict = await watchPage(page, {
        deadline: new Deadline(0),
        clock: "beforeLook",
        read: async () => ++looks,
        decide: (n) => ({ verdict: `look ${n}` }),
        timeUp: (last) => `no look (${last})`,
      });
      expect(verdict).toBe("no look (undefined)");
      expect(looks).toBe(0);
    });
  }, 30_000);

  it("reads the page once the site answered its request, not while it is in flight", async () => {
    await env.host.withPage(async (page) => {
      trackRequests(page);
      await page.goto(`${env.sites.url}/classic/login`);
      // The fixture's slow login answers its POST after a while: a look taken before would see "pending".
      await page.evaluate(() => {
        document.body.dataset.state = "pending";
        void fetch("/slow/login?delayMs=300", { method: "POST", body: new URLSearchParams({ username: "x" }) }).then(
          () => (document.body.dataset.state = "answered"),
        );
      });
      const verdict = await watchPage(page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        read: () => page.evaluate(() => document.body.dataset.state),
        decide: (state) => ({ verdict: state }),
        timeUp: () => "time up",
      });
      expect(verdict).toBe("answered");
    });
  }, 30_000);

  it("looks again after a half-drawn look only once the page stopped drawing", async () => {
    await env.host.withPage(async (page) => {
      await page.goto(`${env.sites.url}/classic/login`);
      // The page draws its form in steps, each on the one before (a script's ticks), and then stops.
      await page.evaluate(() => {
        let left = 5;
        const draw = () => {
          document.body.append(Object.assign(document.createElement("p"), { className: "tick" }));
          if (--left > 0) setTimeout(draw, 30);
          else document.body.dataset.drawn = "yes";
        };
        draw();
      });
      let looks = 0;
      const verdict = await watchPage(page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        quiet: false,
        read: () => (looks++, page.evaluate(() => document.body.dataset.drawn === "yes")),
        decide: (drawn) => (drawn ? { verdict: "drawn" } : "settle"),
        timeUp: () => "time up",
      });
      expect(verdict).toBe("drawn");
      // The half-drawn look, then the finished one: none in between while the page still drew.
      expect(looks).toBeLessThanOrEqual(2);
    });
  }, 30_000);

  it("ends with the verdict that needs no look, before and after the network went quiet", async () => {
    await env.host.withPage(async (page) => {
      await page.goto(`${env.sites.url}/classic/login`);
      let looks = 0;
      let back = false;
      const verdict = await watchPage(() => page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        done: () => (back ? { verdict: "back" } : null),
        read: async (shown) => {
          looks++;
          expect(shown).toBe(page);
          return looks;
        },
        decide: () => {
          back = true;
          return "wait";
        },
        timeUp: () => "time up",
      });
      expect(verdict).toBe("back");
      expect(looks).toBe(1);
    });
  }, 30_000);

  it("leaves the clock to a decider that keeps its own, and ends a confirming look on the watch's clock", async () => {
    await env.host.withPage(async (page) => {
      await page.goto(`${env.sites.url}/classic/login`);
      let looks = 0;
      const own = await watchPage(page, {
        deadline: new Deadline(0),
        clock: "decide",
        quiet: false,
        read: async () => ++looks,
        decide: (n) => (n < 3 ? "wait" : { verdict: `decided on look ${n}` }),
      });
      expect(own).toBe("decided on look 3");
      const confirming = await watchPage(page, {
        deadline: new Deadline(FLOW_DEADLINE_MS),
        ms: 0,
        quiet: false,
        read: async () => "success",
        decide: () => "confirm",
        timeUp: (last) => `time up after ${last}`,
      });
      expect(confirming).toBe("time up after success");
    });
  }, 30_000);
});
