import { createServer } from "node:net";
import { TargetGuard } from "@authsvc/browser";
import { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { PageWatch } from "./page-watch";
import { FLOW_DEADLINE_MS, useBrowserAndSites } from "../testing/browser-and-sites";

const env = useBrowserAndSites();
const { guard } = env;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("PageWatch.open", () => {
  it("carries on from where the site's script took the page when that cancelled the flow's navigation", async () => {
    const signupPage = `${env.sites.url}/cases/signup-set-password/signup`;
    // The race, put in order by states, not by a clock: the page's own redirect after the POST (a script
    // timer) is held until the flow's navigation has gone out, and the flow's navigation waits on the guard
    // (as on a slow resolver) until the page's redirect has started, so that one cancels it.
    let redirectStarted!: () => void;
    const redirected = new Promise<void>((resolve) => (redirectStarted = resolve));
    let flowAsked!: () => void;
    const flowNavigating = new Promise<void>((resolve) => (flowAsked = resolve));
    const slowDns = new TargetGuard(["loopback"], async (host) => {
      if (host !== "localhost") return [host];
      flowAsked();
      await redirected;
      return ["127.0.0.1"];
    });
    await env.host.withPage(async (page) => {
      // The held timer fires on a storage event from another tab of the site: while a navigation to another
      // site is pending, Chromium holds DevTools' commands to the page, so the test cannot call into it.
      await page.evaluateOnNewDocument(() => {
        const held: Array<() => void> = [];
        const realSetTimeout = window.setTimeout;
        window.setTimeout = ((fn: unknown, ms?: number, ...args: unknown[]) => {
          if (typeof fn === "function" && /location\.replace/.test(String(fn))) return held.push(fn as () => void);
          return realSetTimeout(fn as () => void, ms, ...args);
        }) as typeof window.setTimeout;
        window.addEventListener("storage", (e) => {
          if (e.key === "release-redirect") held.splice(0).forEach((fire) => fire());
        });
      });
      page.on("request", (request) => {
        if (request.url().includes("checkemail=registered")) redirectStarted();
      });
      const watch = await PageWatch.attach(page, slowDns, signupPage);
      // One deadline for the whole sequence (two opens, a form, a second tab): the bound of a flow in an engine
      // test, not a quiet machine's time (30 s ran out in a clean-clone run beside a CPU hog).
      const deadline = new Deadline(FLOW_DEADLINE_MS);
      await watch.open(signupPage, deadline, "signup page");
      const email = `abort${process.pid}${Date.now().toString(36)}@example.test`;
      await page.type("input[name=user_login]", email.split("@")[0]!);
      await page.type("input[name=user_email]", email);
      await Promise.all([page.waitForNavigation(), page.click("input[type=submit]")]);
      expect(await page.evaluate(() => document.body.innerText)).toContain("Redirecting");
      const otherTab = await page.browserContext().newPage();
      await otherTab.goto(signupPage);
      await page.bringToFront();
      const opening = watch.open(
        `${env.sites.url.replace("127.0.0.1", "localhost")}/cases/signup-set-password/login`,
        deadline,
        "login page",
      );
      await flowNavigating;
      await otherTab.evaluate(() => localStorage.setItem("release-redirect", String(Math.random())));
      await opening;
      expect(page.url()).toBe(`${env.sites.url}/cases/signup-set-password/login?checkemail=registered`);
      expect(await page.evaluate(() => document.body.innerText)).toContain(
        "Registration complete. Please check your email",
      );
    });
  });

  it("still ends target_unreachable where nothing answers", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/signup`;
    await env.host.withPage(async (page) => {
      const watch = await PageWatch.attach(page, guard, url);
      const err = await watch.open(url, new Deadline(FLOW_DEADLINE_MS), "signup page").then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(LoginFlowError);
      expect((err as LoginFlowError).code).toBe("target_unreachable");
    });
  });
});
