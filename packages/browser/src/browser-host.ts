import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { armAuthenticator, armNewPages } from "./passkeys";
import { processTreeMemoryBytes } from "./process-memory";
import { EgressProxy, type ProxyDoor } from "./egress-proxy";
import type { UpstreamProxy } from "./upstream-proxy";
import { launchChromium } from "./launch-chromium";
import { tolerateClosedTargets } from "./tolerate-closed-targets";
import { contextOptions, MEMORY_CHECK_EVERY_MS, type BrowserHostOptions } from "./browser-host-options";

export { contextOptions, MEMORY_CHECK_EVERY_MS, type BrowserHostOptions } from "./browser-host-options";

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
  /** The running Chromium new jobs get (null before the first launch, between a death or retirement and the next). */
  private live: Browser | null = null;
  /** A context and page made ahead for the next job, and the launch (the browser) it is made in. */
  private spare: { launch: Promise<Browser>; prepared: Promise<Prepared> } | null = null;
  /**
   * Jobs each browser has run, and how many it runs now. A retired browser closes once no job runs in it and
   * none is still taking a context from it (its spare, taken before it retired): `waitingToClose`.
   */
  private readonly served = new WeakMap<Browser, number>();
  private readonly active = new WeakMap<Browser, number>();
  private readonly retired = new WeakSet<Browser>();
  private readonly waitingToClose = new Set<Browser>();
  /** Jobs between asking a launch (a browser) for a context and counting in that browser's `active`. */
  private readonly taking = new WeakMap<Promise<Browser>, number>();
  private readonly launchOf = new WeakMap<Browser, Promise<Browser>>();
  /** When each browser's memory was last read against the bound (performance.now()). */
  private readonly memoryReadAt = new WeakMap<Browser, number>();
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
      const launching = this.proxyUrl.then((proxy) =>
        launchChromium(this.options.executablePath, {
          mode: this.options.mode,
          proxyServer: proxy,
          trustedSpki: this.options.trustedSpki,
        }),
      );
      this.browser = launching;
      launching.then(
        (b) => {
          this.launchOf.set(b, launching);
          if (this.browser === launching) this.live = b;
          b.once("disconnected", () => {
            this.waitingToClose.delete(b);
            if (this.live === b) this.live = null;
            if (this.browser === launching) this.browser = null;
            if (this.retired.has(b)) return; // closed on purpose (recycled)
            this.spare = null;
            if (!this.closing) this.options.onCrash?.(new Error("Chromium disconnected"));
          });
        },
        () => {
          if (this.browser === launching) this.browser = null;
        },
      );
    }
    return this.browser;
  }

  private async prepare(launch: Promise<Browser>, door?: ProxyDoor): Promise<Prepared> {
    const context = await (await launch).createBrowserContext(contextOptions(door));
    try {
      // Every page of the context has a virtual authenticator: a site's passkey prompt is answered at once.
      armNewPages(context);
      const page = await context.newPage();
      await armAuthenticator(page);
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
    const launch = this.current();
    const prepared = this.prepare(launch);
    prepared.catch(() => undefined); // a failed spare is replaced by a fresh one when taken
    this.spare = { launch, prepared };
  }

  /** The spare when it is good, else a new context; `from` is told each launch it is taken from. */
  private async take(from: (launch: Promise<Browser>) => void): Promise<Prepared> {
    // Swap the spare for a new one before awaiting, so concurrent takers never overwrite each other's refill.
    const spare = this.spare;
    this.spare = null;
    if (spare) {
      from(spare.launch);
      const ready = await spare.prepared.catch(() => null);
      if (ready && !ready.page.isClosed() && ready.context.browser().connected) return ready;
      if (ready) await ready.context.close().catch(() => undefined);
    }
    const launch = this.current();
    from(launch);
    return this.prepare(launch);
  }

  /**
   * Runs `fn` with a page in a context of its own, closed afterwards. The spare is made again once the job
   * is over, not while it runs: a new page's set-up (a renderer process, the stealth evasions) competes
   * for the CPU with the login that just started.
   */
  async withPage<T>(
    fn: (page: Page, door: ProxyDoor | null) => Promise<T>,
    options: { upstream?: UpstreamProxy } = {},
  ): Promise<T> {
    // A job through its organization's proxy gets a context made for it (the spare leaves directly).
    let door: ProxyDoor | null = null;
    let prepared: Prepared;
    // Counted as taking from its browser until it counts in its `active`: a retired browser waits for it.
    let takingFrom: Promise<Browser> | null = null;
    const stopTaking = () => {
      if (takingFrom) this.taken(takingFrom);
      takingFrom = null;
    };
    const from = (launch: Promise<Browser>) => {
      stopTaking();
      takingFrom = launch;
      this.taking.set(launch, (this.taking.get(launch) ?? 0) + 1);
    };
    try {
      if (options.upstream) {
        const launch = this.current();
        from(launch);
        await launch;
        door = await this.proxy.door(options.upstream);
        prepared = await this.prepare(launch, door);
      } else {
        prepared = await this.take(from);
      }
    } catch (err) {
      stopTaking();
      await door?.close().catch(() => undefined);
      throw err;
    }
    const { context, page } = prepared;
    const browser = context.browser();
    this.active.set(browser, (this.active.get(browser) ?? 0) + 1);
    stopTaking();
    try {
      return await fn(page, door);
    } finally {
      await context.close().catch(() => undefined);
      await door?.close().catch(() => undefined);
      this.active.set(browser, (this.active.get(browser) ?? 1) - 1);
      this.served.set(browser, (this.served.get(browser) ?? 0) + 1);
      this.recycleIfDue(browser);
      if (!this.spare) this.refillSpare();
    }
  }

  /**
   * After a job: retires the browser when it has run its share of jobs or grown past the memory bound.
   * New jobs then get a new Chromium; the old one closes once the jobs still running in it end.
   */
  private recycleIfDue(browser: Browser): void {
    const { recycleAfterJobs = 0, recycleAboveBytes = 0 } = this.options;
    if (!this.retired.has(browser) && browser.connected) {
      const jobs = this.served.get(browser) ?? 0;
      const { memoryCheckEveryMs = MEMORY_CHECK_EVERY_MS, readMemory = processTreeMemoryBytes } = this.options;
      const now = performance.now();
      const readAt = this.memoryReadAt.get(browser);
      const memoryDue = recycleAboveBytes > 0 && (readAt === undefined || now - readAt >= memoryCheckEveryMs);
      if (memoryDue) this.memoryReadAt.set(browser, now);
      const memoryBytes = memoryDue ? readMemory(browser.process()?.pid) : 0;
      const reason =
        recycleAfterJobs > 0 && jobs >= recycleAfterJobs
          ? "jobs"
          : recycleAboveBytes > 0 && memoryBytes > recycleAboveBytes
            ? "memory"
            : null;
      if (reason) {
        this.retired.add(browser);
        this.browser = null;
        if (this.live === browser) this.live = null;
        // The spare belongs to the old browser: dropped, made again in the new one.
        const spare = this.spare;
        this.spare = null;
        void spare?.prepared.then((s) => s.context.close()).catch(() => undefined);
        this.options.onRecycle?.({ jobs, memoryBytes, reason });
      }
    }
    if (this.retired.has(browser)) this.waitingToClose.add(browser);
    this.closeRetired();
  }

  /** A job no longer takes a context from `launch` (it counts in its browser's `active`, or gave up). */
  private taken(launch: Promise<Browser>): void {
    this.taking.set(launch, (this.taking.get(launch) ?? 1) - 1);
    this.closeRetired();
  }

  /**
   * Closes the retired browsers no job runs in nor takes a context from: a job taking the spare a browser
   * made before it retired must not get a context that dies under it.
   */
  private closeRetired(): void {
    for (const browser of this.waitingToClose) {
      if ((this.active.get(browser) ?? 0) > 0) continue;
      const launch = this.launchOf.get(browser);
      if (launch && (this.taking.get(launch) ?? 0) > 0) continue;
      this.waitingToClose.delete(browser);
      void browser.close().catch(() => undefined);
    }
  }

  /**
   * Memory (PSS) of the current Chromium and all its processes, for the worker's metrics; 0 while none runs.
   * (A retired one still finishing a job is not counted.)
   */
  memoryBytes(): number {
    return this.live?.connected ? processTreeMemoryBytes(this.live.process()?.pid) : 0;
  }

  /** Launches Chromium now, so the first job does not pay for it and a broken install shows at start. */
  async warmUp(): Promise<string> {
    const version = await (await this.current()).version();
    this.refillSpare();
    return version;
  }

  async close(): Promise<void> {
    this.closing = true;
    const spare = await this.spare?.prepared.catch(() => null);
    await spare?.context.close().catch(() => undefined);
    this.spare = null;
    // Retired browsers too: those still running a job or waiting for a taker close with the host.
    await Promise.all([...this.waitingToClose].map((b) => b.close().catch(() => undefined)));
    this.waitingToClose.clear();
    const browser = await this.browser?.catch(() => null);
    await browser?.close().catch(() => undefined);
    this.browser = null;
    await this.proxy.close();
  }
}
