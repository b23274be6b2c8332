import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { EgressProxy, type EgressRefusal } from "./egress-proxy";
import { launchChromium } from "./launch-chromium";
import type { TargetGuard } from "@authsvc/egress";
import { tolerateClosedTargets } from "./tolerate-closed-targets";

export interface BrowserHostOptions {
  executablePath: string;
  /** Decides every connection Chromium makes, through the host's egress proxy. */
  guard: TargetGuard;
  /**
   * Tests and development only: base64 SHA-256 keys of self-signed certificates to accept (the fixtures served
   * under real host names through the guard's host map). Empty in production, where config refuses it.
   */
  trustedSpki?: readonly string[];
  onCrash?: (err: Error) => void;
  onEgressRefused?: (refusal: EgressRefusal) => void;
}

interface Prepared {
  context: BrowserContext;
  page: Page;
}

/**
 * One Chromium per process, launched on first use and again after it dies. Each job gets its own fresh
 * BrowserContext (no shared cookies, storage or cache) that is closed when the job ends, whatever happens.
 * One unused context and page are kept ready, so a job does not wait for the page's set-up (stealth
 * evasions take a few hundred milliseconds); it is never handed to two jobs. All of Chromium's traffic
 * leaves through an egress proxy that enforces the target guard.
 */
export class BrowserHost {
  private browser: Promise<Browser> | null = null;
  private spare: Promise<Prepared> | null = null;
  private closing = false;
  private readonly proxy: EgressProxy;
  private proxyUrl: Promise<string> | null = null;

  constructor(private readonly options: BrowserHostOptions) {
    tolerateClosedTargets();
    this.proxy = new EgressProxy(options.guard, options.onEgressRefused);
  }

  private current(): Promise<Browser> {
    if (this.closing) return Promise.reject(new Error("browser host is shutting down"));
    if (!this.browser) {
      if (!this.proxyUrl) {
        const starting = this.proxy.start();
        this.proxyUrl = starting;
        starting.catch(() => {
          if (this.proxyUrl === starting) this.proxyUrl = null; // try again at the next launch
        });
      }
      const launching = this.proxyUrl.then((proxy) => launchChromium(this.options.executablePath, proxy, this.options.trustedSpki));
      this.browser = launching;
      launching.then(
        (b) =>
          b.once("disconnected", () => {
            if (this.browser === launching) this.browser = null;
            this.spare = null;
            if (!this.closing) this.options.onCrash?.(new Error("Chromium disconnected"));
          }),
        () => {
          if (this.browser === launching) this.browser = null;
        },
      );
    }
    return this.browser;
  }

  private async prepare(): Promise<Prepared> {
    const context = await (await this.current()).createBrowserContext();
    try {
      const page = await context.newPage();
      // A round trip after the stealth plugin's set-up commands (sent as the page was created): the page
      // is ready only once they have landed, so they apply to the first request and never meet a closed page.
      await page.evaluate("0");
      return { context, page };
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  private refillSpare(): void {
    if (this.closing) return;
    const next = this.prepare();
    next.catch(() => undefined); // a failed spare is replaced by a fresh one when taken
    this.spare = next;
  }

  private async take(): Promise<Prepared> {
    // Swap the spare for a new one before awaiting, so concurrent takers never overwrite each other's refill.
    const spare = this.spare;
    this.refillSpare();
    const ready = spare ? await spare.catch(() => null) : null;
    if (ready && !ready.page.isClosed() && ready.context.browser().connected) return ready;
    if (ready) await ready.context.close().catch(() => undefined);
    return this.prepare();
  }

  /** Runs `fn` with a page in a context of its own, closed afterwards. */
  async withPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
    const { context, page } = await this.take();
    try {
      return await fn(page);
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  /** Launches Chromium now, so the first job does not pay for it and a broken install shows at start. */
  async warmUp(): Promise<string> {
    const version = await (await this.current()).version();
    this.refillSpare();
    return version;
  }

  async close(): Promise<void> {
    this.closing = true;
    const spare = await this.spare?.catch(() => null);
    await spare?.context.close().catch(() => undefined);
    this.spare = null;
    const browser = await this.browser?.catch(() => null);
    await browser?.close().catch(() => undefined);
    this.browser = null;
    await this.proxy.close();
  }
}
