import { chromiumPath } from "@authsvc/config";
import puppeteer, { type Browser, type BrowserContext, type Page } from "puppeteer-core";
import { CHROMIUM_ARGS } from "@authsvc/devstack";

export const dashboardUrl = () => process.env.E2E_DASHBOARD_URL!;

/** One headless Chromium per test file, with the worker's flags. */
export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath("full"),
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}

/** Controls are found by their accessible names, as a screen reader finds them. */
export const byName = (name: string, role?: string) => `::-p-aria([name="${name}"]${role ? `[role="${role}"]` : ""})`;

/** A person at the dashboard: one isolated browser context (own cookies) and one tab. */
export class Person {
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  static async open(browser: Browser): Promise<Person> {
    const context = await browser.createBrowserContext();
    return new Person(context, await context.newPage());
  }

  async goto(path: string) {
    return this.page.goto(`${dashboardUrl()}${path}`, { waitUntil: "domcontentloaded" });
  }

  async fill(label: string, value: string): Promise<void> {
    const input = await this.page.waitForSelector(byName(label));
    await input!.click({ count: 3 });
    await input!.type(value);
  }

  /** Clicks a control that loads a page, and waits for that page. */
  async press(name: string, role = "button") {
    const control = await this.page.waitForSelector(byName(name, role));
    const [response] = await Promise.all([
      this.page.waitForNavigation({ waitUntil: "domcontentloaded" }),
      control!.click(),
    ]);
    return response;
  }

  text(): Promise<string> {
    return this.page.$eval("main", (m) => (m as HTMLElement).innerText);
  }

  async signUp(email: string, password: string): Promise<void> {
    await this.goto("/signup");
    await this.fill("Email", email);
    await this.fill("Password", password);
    await this.press("Create account");
  }

  async signIn(email: string, password: string) {
    await this.goto("/signin");
    await this.fill("Email", email);
    await this.fill("Password", password);
    return this.press("Sign in");
  }

  /** Creates an organization and returns its id (from the page it lands on). */
  async createOrganization(name: string): Promise<string> {
    await this.goto("/orgs");
    await this.fill("Organization name", name);
    await this.press("Create organization");
    const id = /\/o\/(org_[0-9A-Za-z]+)\//.exec(this.page.url())?.[1];
    if (!id) throw new Error(`no organization page after creating one: ${this.page.url()}`);
    return id;
  }

  /** Creates an API key on the org's "API keys" page and returns the secret shown once. */
  async createApiKey(orgId: string, name: string): Promise<string> {
    await this.goto(`/o/${orgId}/keys`);
    await this.fill("Key name", name);
    await this.press("Create API key");
    return this.page.$eval("#new-key", (e) => e.textContent!.trim());
  }

  /** The session cookie and form token of this person, for requests made outside the browser. */
  async credentials(): Promise<{ cookie: string; csrf: string }> {
    const cookies = await this.context.cookies();
    const csrf = await this.page.$eval('input[name="_csrf"]', (e) => (e as HTMLInputElement).value);
    return { cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "), csrf };
  }

  close(): Promise<void> {
    return this.context.close();
  }
}

let seq = 0;
export const newEmail = (tag: string) => `${tag}-${process.pid}-${++seq}-${Date.now().toString(36)}@example.test`;

/** A form post made outside a browser (a script, an attacker's page): what the dashboard answers. */
export async function postForm(
  path: string,
  form: Record<string, string>,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const res = await fetch(`${dashboardUrl()}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
  return { status: res.status, text: await res.text() };
}
