import { Deadline } from "../deadline";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";
import { AfterSubmit } from "./after-submit";
import { PageWatch } from "./page-watch";
import { snapshotSession } from "./session-snapshot";

const env = useBrowserAndSites();

beforeAll(() => env.sites.accounts.addUser("after-submit-user", "after-submit-pw"));

describe("AfterSubmit", () => {
  it("gives no verdict on a poll that read the form before the site's answer to its POST landed", async () => {
    // The classic form behind a server that takes 5 s to answer the POST (a 302 to the account page, with
    // the session's cookie).
    const loginUrl = `${env.sites.url}/slow/login?delayMs=5000`;
    await env.host.withPage(async (page) => {
      const deadline = new Deadline(FLOW_DEADLINE_MS);
      const watch = await PageWatch.attach(page, env.guard, loginUrl);
      await watch.open(loginUrl, deadline, "login page");
      await page.type("input[name=username]", "after-submit-user");
      await page.type("input[name=password]", "after-submit-pw");
      const before = await snapshotSession(page.browserContext(), page, "after-submit-user");
      // Told by the page's own events, which PageWatch (listening since before) has seen first.
      const posted = page.waitForRequest((r) => r.method() === "POST" && r.isNavigationRequest(), { timeout: 120_000 });
      const answerLoaded = new Promise<void>((resolve) =>
        page.on("requestfinished", (r) => {
          if (r.isNavigationRequest() && new URL(r.url()).pathname === "/classic/account") resolve();
        }),
      );
      await page.click("button[type=submit]");
      await posted;
      expect(watch.answering()).toBe(true);
      // The clock runs out at once, and the site's answer lands while the first poll is read and judged: as
      // on a loaded machine, when the POST took about as long as the verdict window. (While a POST waits for
      // its answer, Chromium holds every read of the page until the answer's document replaces it, so a poll
      // begun then is judged only after the answer came.) When the clock is looked at, nothing is in flight
      // any more, and the poll read the page the form went out from: only the navigations that came after
      // the reading say that page is gone.
      const watcher = new AfterSubmit(page, deadline, {
        identifier: () => "after-submit-user",
        before,
        status: () => watch.documentStatus,
        dialogs: () => [],
        navigation: watch,
        settleMs: 1,
        read: async () =>
          watch.answering() ? "the POST still held" : page.evaluate(() => location.pathname).catch(() => "unreadable"),
      });
      const verdict = await watcher.watch(
        async (poll) => {
          if (poll.extra === "/classic/account") return { verdict: "signed in" };
          if (poll.extra === "the POST still held") {
            await page.waitForFunction(
              () => location.pathname === "/classic/account" && document.readyState !== "loading",
              { timeout: 120_000 },
            );
            await answerLoaded;
          }
          return "wait";
        },
        (poll) => `the clock ran out on "${poll.extra}"`,
      );
      expect(verdict).toBe("signed in");
    });
  });
});
