import { createServer } from "node:net";
import { TargetGuard } from "@authsvc/browser";
import { Deadline } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { PageWatch } from "./page-watch";
import { useBrowserAndSites } from "../testing/browser-and-sites";

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
    // A resolver as slow as real DNS: the flow's navigation waits on the guard while the page's timer fires.
    const slowDns = new TargetGuard(["loopback"], (host) => new Promise((resolve) => setTimeout(() => resolve(host === "localhost" ? ["127.0.0.1"] : [host]), 1500)));
    await env.host.withPage(async (page) => {
      const watch = await PageWatch.attach(page, slowDns, signupPage);
      const deadline = new Deadline(30_000);
      await watch.open(signupPage, deadline, "signup page");
      const email = `abort${process.pid}${Date.now().toString(36)}@example.test`;
      await page.type("input[name=user_login]", email.split("@")[0]!);
      await page.type("input[name=user_email]", email);
      await Promise.all([page.waitForNavigation(), page.click("input[type=submit]")]);
      expect(await page.evaluate(() => document.body.innerText)).toContain("Redirecting");
      await watch.open(`${env.sites.url.replace("127.0.0.1", "localhost")}/cases/signup-set-password/login`, deadline, "login page");
      expect(page.url()).toBe(`${env.sites.url}/cases/signup-set-password/login?checkemail=registered`);
      expect(await page.evaluate(() => document.body.innerText)).toContain("Registration complete. Please check your email");
    });
  });

  it("still ends target_unreachable where nothing answers", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/signup`;
    await env.host.withPage(async (page) => {
      const watch = await PageWatch.attach(page, guard, url);
      const err = await watch.open(url, new Deadline(10_000), "signup page").then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(LoginFlowError);
      expect((err as LoginFlowError).code).toBe("target_unreachable");
    });
  });
});
