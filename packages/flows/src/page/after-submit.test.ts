import { Deadline } from "../deadline";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";
import { AfterSubmit } from "./after-submit";
import { PageWatch } from "./page-watch";
import { snapshotSession } from "./session-snapshot";

const env = useBrowserAndSites();

beforeAll(() => env.sites.accounts.addUser("after-submit-user", "after-submit-pw"));

describe("AfterSubmit", () => {
  it("gives no verdict on a poll that read the form before the site's answer to its POST landed", async () => {
    // The classic form behind a server that holds the POST's answer (a 302 to the account page, with the
    // session's cookie) at a gate the test opens.
    const gate = `after-submit-${Date.now()}`;
    const loginUrl = `${env.sites.url}/held/login?hold=submit&gate=${gate}`;
    env.sites.gates.close(gate);
    try {
      await env.host.withPage(async (page) => {
        const deadline = new Deadline(FLOW_DEADLINE_MS);
        const watch = await PageWatch.attach(page, env.guard, loginUrl);
        await watch.open(loginUrl, deadline, "login page");
        await page.type("input[name=username]", "after-submit-user");
        await page.type("input[name=password]", "after-submit-pw");
        const before = await snapshotSession(page.browserContext(), page, "after-submit-user");
        await page.click("button[type=submit]");
        while (env.sites.gates.held(gate) === 0 || !watch.answering()) await new Promise((resolve) => setTimeout(resolve, 20));
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
          read: async () => {
            if (!watch.answering()) return page.evaluate(() => location.pathname).catch(() => "unreadable");
            env.sites.gates.open(gate);
            return "the POST still held";
          },
        });
        const verdict = await watcher.watch(
          async (poll) => {
            if (poll.extra === "/classic/account") return { verdict: "signed in" };
            if (poll.extra === "the POST still held") {
              await page.waitForFunction(() => location.pathname === "/classic/account" && document.readyState !== "loading", { timeout: 120_000 });
              while (watch.answering()) await new Promise((resolve) => setTimeout(resolve, 20));
            }
            return "wait";
          },
          (poll) => `the clock ran out on "${poll.extra}"`,
        );
        expect(verdict).toBe("signed in");
      });
    } finally {
      env.sites.gates.open(gate);
    }
  });
});
