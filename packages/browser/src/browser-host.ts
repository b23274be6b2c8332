import type { Browser, BrowserContext } from "puppeteer-core";
import { launchChromium } from "./launch-chromium";

export interface BrowserHostEvents {
  onCrash?: (err: Error) => void;
}

/**
 * One Chromium per process, launched on first use and again after it dies. Each job gets its own fresh
 * BrowserContext (no shared cookies, storage or cache) that is closed when the job ends, whatever happens.
 */
export class BrowserHost {
  private browser: Promise<Browser> | null = null;
  private closing = false;

  constructor(
    private readonly executablePath: string,
    private readonly events: BrowserHostEvents = {},
  ) {}

  private current(): Promise<Browser> {
    if (this.closing) return Promise.reject(new Error("browser host is shutting down"));
    if (!this.browser) {
      const launching = launchChromium(this.executablePath);
      this.browser = launching;
      launching.then(
        (b) =>
          b.once("disconnected", () => {
            if (this.browser === launching) this.browser = null;
            if (!this.closing) this.events.onCrash?.(new Error("Chromium disconnected"));
          }),
        () => {
          if (this.browser === launching) this.browser = null;
        },
      );
    }
    return this.browser;
  }

  async withContext<T>(fn: (context: BrowserContext) => Promise<T>): Promise<T> {
    const browser = await this.current();
    const context = await browser.createBrowserContext();
    try {
      return await fn(context);
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  /** Launches Chromium now, so the first job does not pay for it and a broken install shows at start. */
  async warmUp(): Promise<string> {
    return (await this.current()).version();
  }

  async pid(): Promise<number | undefined> {
    return (await this.current()).process()?.pid;
  }

  async close(): Promise<void> {
    this.closing = true;
    const browser = await this.browser?.catch(() => null);
    await browser?.close().catch(() => undefined);
    this.browser = null;
  }
}
