import { chromiumPath, launchChromium, type Browser, type BrowserContext, type Page } from "@authsvc/browser";
import type { SiteMail } from "../outbox";
import { type OAuthSites, startOAuthSites } from "./index";

/** The sites, one headless Chromium and the mail Acme ID sent, for one test file; fields are set in beforeAll. */
export interface OAuthTestEnv {
  sites: OAuthSites;
  browser: Browser;
  mail: SiteMail[];
  /** A fresh browser profile (its own cookies) for each test: sessions of one test must not help another. */
  context(): Promise<BrowserContext>;
}

export function useOAuthSites(): OAuthTestEnv {
  const contexts: BrowserContext[] = [];
  const env = {
    mail: [] as SiteMail[],
    context: async () => {
      const context = await env.browser.createBrowserContext();
      contexts.push(context);
      return context;
    },
  } as OAuthTestEnv;
  beforeAll(async () => {
    env.sites = await startOAuthSites({ outbox: { mail: async (message) => void env.mail.push(message) } });
    env.browser = await launchChromium(chromiumPath("full"));
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.sites?.close();
  });
  return env;
}

let counter = 0;
/** A new Acme ID user for one test (so counts and grants start at zero), linked on the given sites. */
export function newUser(
  sites: OAuthSites,
  linkedOn: Array<"a" | "b">,
  extra: { totpSecret?: string; emailCode?: boolean; blocked?: boolean } = {},
) {
  const email = `user${++counter}-${Date.now()}@acme.test`;
  const user = { email, password: `pw-${counter}`, ...extra };
  sites.addUser(user);
  for (const site of linkedOn) sites.link(site, email);
  return user;
}

/** Clicks the link or button whose text is exactly `text`, and waits for the navigation. */
export async function clickText(page: Page, text: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), clickControl(page, text)]);
}

/** Clicks the link or button whose whole text is `text` (a text selector would also match a sentence containing it). */
export async function clickControl(page: Page, text: string): Promise<void> {
  const handles = await page.$$("a, button");
  for (const handle of handles) {
    if ((await handle.evaluate((e) => e.textContent?.trim())) === text) return handle.click();
  }
  throw new Error(`no link or button "${text}" on ${page.url()}`);
}

export const heading = (page: Page) => page.$eval("h1", (h) => h.textContent ?? "");
export const alertText = (page: Page) => page.$eval('[role="alert"]', (a) => a.textContent ?? "");

/** Fills Acme ID's sign-in form and submits it. */
export async function acmeSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.type('input[type="email"]', email);
  await page.type('input[type="password"]', password);
  await clickText(page, "Sign in");
}
