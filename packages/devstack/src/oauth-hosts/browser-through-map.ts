import { BrowserHost, chromiumPath, type Page } from "@authsvc/browser";
import { HostMap, TargetGuard } from "@authsvc/egress";
import { startOAuthHosts, type OAuthHosts } from "@authsvc/test-sites";

export interface OAuthHostsEnv {
  hosts: OAuthHosts;
  host: BrowserHost;
}

/**
 * For a test file: the OAuth host fixtures, and one Chromium whose egress proxy knows their host map, as
 * the worker's does under EGRESS_HOST_MAP. The fields are set once beforeAll ran.
 */
export function useOAuthHosts(): OAuthHostsEnv {
  const env = {} as OAuthHostsEnv;
  beforeAll(async () => {
    env.hosts = await startOAuthHosts();
    const guard = new TargetGuard(["loopback"], undefined, new HostMap(env.hosts.hostMap));
    env.host = new BrowserHost({ executablePath: chromiumPath("full"), guard, trustedSpki: [env.hosts.trustedSpki] });
  });
  afterAll(async () => {
    await env.host?.close();
    await env.hosts?.close();
  });
  return env;
}

/** Clicks and waits for the page it leads to (a link, a form submission or a script's location change). */
export async function clickAndLoad(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

/** Types into a field once it is visible. */
export async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForSelector(selector, { visible: true });
  await page.type(selector, text);
}

export const text = (page: Page, selector: string) =>
  page.$eval(selector, (el) => (el as HTMLElement).innerText.trim());
