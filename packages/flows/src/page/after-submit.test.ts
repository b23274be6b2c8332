import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Deadline } from "../deadline";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";
import { AfterSubmit } from "./after-submit";
import { PageWatch } from "./page-watch";
import { snapshotSession } from "./session-snapshot";

const env = useBrowserAndSites();

/** A site whose login POST is answered only when the test says so: a 302 to its account page, with a cookie. */
async function heldSite(): Promise<{ url: string; answer: () => void; server: Server }> {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const server = createServer((req, res) => {
    if (req.method === "POST") {
      req.resume();
      void answered.then(() => {
        res.writeHead(302, { location: "/account", "set-cookie": "sid=s3ss10n; HttpOnly; Path=/" });
        res.end();
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    if (req.url === "/account") res.end(`<!doctype html><title>Account</title><h1>Your account</h1><a href="/logout">Sign out</a>`);
    else res.end(`<!doctype html><title>Sign in</title><form method="post" action="/login"><input name="username"><input type="password" name="password"><button>Sign in</button></form>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/login`, answer, server };
}

describe("AfterSubmit", () => {
  it("gives no verdict on a poll that read the form before the site's answer to its POST landed", async () => {
    const site = await heldSite();
    try {
      await env.host.withPage(async (page) => {
        const deadline = new Deadline(FLOW_DEADLINE_MS);
        const watch = await PageWatch.attach(page, env.guard, site.url);
        await watch.open(site.url, deadline, "login page");
        await page.type("input[name=username]", "someone");
        await page.type("input[name=password]", "pw");
        const before = await snapshotSession(page.browserContext(), page, "someone");
        await page.click("button");
        while (!watch.answering()) await new Promise((resolve) => setTimeout(resolve, 20));
        // The clock runs out at once, and the site's answer lands while the first poll is read and judged: as
        // on a loaded machine, when the POST took about as long as the verdict window. (While a POST waits for
        // its answer, Chromium holds every read of the page until the answer's document replaces it, so a poll
        // begun then is judged only after the answer came.) When the clock is looked at, nothing is in flight
        // any more, and the poll read the page the form went out from: only the navigations that came after
        // the reading say that page is gone.
        const watcher = new AfterSubmit(page, deadline, {
          identifier: () => "someone",
          before,
          status: () => watch.documentStatus,
          dialogs: () => [],
          navigation: watch,
          settleMs: 1,
          read: async () => {
            if (!watch.answering()) return page.evaluate(() => document.title).catch(() => "unreadable");
            site.answer();
            return "the POST still held";
          },
        });
        const verdict = await watcher.watch(
          async (poll) => {
            if (poll.extra === "Account") return { verdict: "signed in" };
            if (poll.extra === "the POST still held") {
              await page.waitForFunction(() => location.pathname === "/account" && document.readyState !== "loading");
              while (watch.answering()) await new Promise((resolve) => setTimeout(resolve, 20));
            }
            return "wait";
          },
          (poll) => `the clock ran out on "${poll.extra}"`,
        );
        expect(verdict).toBe("signed in");
      });
    } finally {
      site.server.closeAllConnections();
      await new Promise((resolve) => site.server.close(resolve));
    }
  });
});
