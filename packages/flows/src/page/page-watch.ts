import { guardRequests, type HTTPRequest, type HTTPResponse, type Page, type TargetGuard } from "@authsvc/browser";
import { type Deadline, sleep } from "../deadline";
import { LoginFlowError } from "../flow-error";
import { trackRequests } from "./network-quiet";

function navigationFailure(err: unknown, what: string, redact: boolean): LoginFlowError {
  const raw = err instanceof Error ? err.message : String(err);
  // A link that is a credential (an invitation) goes into no message or log.
  const message = redact ? raw.replace(/\s+at\s+\S+/g, "").replace(/https?:\/\/\S+/g, "<link>") : raw;
  if (/timeout/i.test(message)) return new LoginFlowError("timeout", `the ${what} did not load in time`);
  return new LoginFlowError("target_unreachable", `the ${what} could not be loaded (${message.split("\n")[0]})`);
}

/** A page's place: its path and, for a single-page app, its hash route (`#/account`); not its query. */
function placeOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${/^#!?\//.test(u.hash) ? u.hash : ""}`;
  } catch {
    return url;
  }
}

// Chromium's word for a navigation that was cancelled, not refused: replaced by the page's own (a redirect
// after POST still in flight), a 204 answer, a download.
const ABORTED = /net::ERR_ABORTED/;
// How long the page's own navigation may take to land after it cancelled ours.
const SETTLE_CAP_MS = 10_000;

/**
 * What a flow must know about its page beyond the DOM: every request checked by the target guard (a
 * refused navigation ends the flow), every origin it touched, the JavaScript dialogs it opened and the
 * HTTP status of the main frame's last document. Attached once per page, before the first navigation.
 */
export class PageWatch {
  /** Documents of any frame, and any response that set a cookie (an API or identity-provider host). */
  readonly visited = new Set<string>();
  readonly documentOrigins = new Set<string>();
  refused: LoginFlowError | null = null;
  /** HTTP status of the last document the main frame loaded since `resetVerdict` (0: none yet). */
  documentStatus = 0;
  /** alert("Invalid password") and friends: their words are a verdict, and an open dialog blocks the page. */
  dialogs: string[] = [];
  /**
   * The main frame's last document since `resetVerdict`: its method, and whether a redirect led to it (a
   * form's POST answered in place is the form's own page, not a page the site sent the browser on to).
   */
  lastDocument: { url: string; method: string; redirected: boolean } | null = null;
  /** How many responses set each cookie name: a name set by two responses is re-issued on every one (it rotates). */
  private readonly cookieSets = new Map<string, number>();
  /** Main-frame navigations the page has in flight (a form's POST, a script's location change). */
  private readonly navigations = new Set<HTTPRequest>();
  /** How many main-frame navigations have started or ended so far (see `moves`). */
  private moveCount = 0;
  /**
   * What the page's requests since `resetVerdict` carried that a token could be in: `Authorization`
   * headers and request addresses (a token in a query, a WebSocket's polling transport). Kept in memory for
   * `sentBack`, bounded, never logged.
   */
  private carried: string[] = [];

  private constructor(private readonly page: Page) {}

  static async attach(page: Page, guard: TargetGuard, startUrl: string): Promise<PageWatch> {
    const watch = new PageWatch(page);
    // Before the page loads: its quiet waits know every request it makes, and which are background.
    trackRequests(page);
    watch.visited.add(new URL(startUrl).origin);
    watch.documentOrigins.add(new URL(startUrl).origin);
    await guardRequests(page, guard, (url, verdict) => {
      watch.refused = new LoginFlowError(verdict.code, `${new URL(url).host}: ${verdict.reason}`);
    });
    page.on("dialog", (dialog) => {
      watch.dialogs.push(dialog.message().slice(0, 300));
      void dialog.dismiss().catch(() => undefined);
    });
    const mainNavigation = (request: HTTPRequest) =>
      request.isNavigationRequest() && request.frame() === page.mainFrame();
    // Puppeteer may report a navigation's end before its start (a goto the page's own redirect cancelled while
    // the guard held it): one that ended is never listed again.
    const ended = new WeakSet<HTTPRequest>();
    page.on("request", (request) => {
      const auth = request.headers().authorization;
      if (watch.carried.length < 200) watch.carried.push(auth ? `${auth} ${request.url()}` : request.url());
      if (mainNavigation(request) && !ended.has(request)) {
        watch.navigations.add(request);
        watch.moveCount++;
      }
    });
    const done = (request: HTTPRequest) => {
      ended.add(request);
      if (watch.navigations.delete(request)) watch.moveCount++;
    };
    page.on("requestfinished", done);
    page.on("requestfailed", done);
    page.on("response", (response) => {
      const url = response.url();
      if (!/^https?:/.test(url)) return;
      const request = response.request();
      const isDocument = request.resourceType() === "document";
      if (isDocument || "set-cookie" in response.headers()) watch.visited.add(new URL(url).origin);
      if (isDocument) watch.documentOrigins.add(new URL(url).origin);
      if (isDocument && request.frame() === page.mainFrame()) {
        watch.documentStatus = response.status();
        watch.lastDocument = { url, method: request.method(), redirected: request.redirectChain().length > 0 };
      }
      const setCookie = response.headers()["set-cookie"];
      if (setCookie) {
        for (const line of setCookie.split("\n")) {
          const name = line.slice(0, line.indexOf("=")).trim();
          if (name) watch.cookieSets.set(name, (watch.cookieSets.get(name) ?? 0) + 1);
        }
      }
    });
    return watch;
  }

  /**
   * Whether the main frame waits for the site to answer a navigation (a form's POST the server still works
   * on). Never once the page or its browser is gone: their requests end without an event.
   */
  answering(): boolean {
    return this.navigations.size > 0 && !this.page.isClosed() && this.page.browser().connected;
  }

  /**
   * How many main-frame navigations have started or ended so far. A reading of the page taken when it was
   * one number is of a page that may be gone once it is another: the site's answer to a POST can land
   * between a poll's reading and the flow's look at `answering`.
   */
  moves(): number {
    return this.moveCount;
  }

  /** Throws the guard's refusal of a navigation, if there was one. */
  check(): void {
    if (this.refused) throw this.refused;
  }

  /** The site's answer to what the flow sends next is read from here on. */
  resetVerdict(): void {
    this.carried = [];
    this.documentStatus = 0;
    this.lastDocument = null;
    this.dialogs = [];
  }

  /**
   * Whether the page sent a request carrying one of `tokens` since the submit (in an `Authorization` header
   * or its address): the app uses what it stored, as a signed-in app uses its session token.
   */
  sentBack(tokens: string[]): boolean {
    return tokens.some((token) =>
      this.carried.some((sent) => sent.includes(token) || sent.includes(encodeURIComponent(token))),
    );
  }

  /** Cookie names the site's responses have set more than once so far: they change whatever the flow does. */
  reissuedCookies(): Set<string> {
    return new Set([...this.cookieSets].filter(([, n]) => n > 1).map(([name]) => name));
  }

  /**
   * Whether the page is now another page than `from` (where the form was sent): its path or its
   * client-side route differs, and it is not the form's POST answered in place at another address.
   */
  movedAway(from: string): boolean {
    const now = this.page.url();
    if (placeOf(now) === placeOf(from)) return false;
    const doc = this.lastDocument;
    return !(doc && doc.url === now && doc.method !== "GET" && !doc.redirected);
  }

  /** Opens a page of the flow; an unreachable site or an HTTP 5xx ends the flow (retryable). */
  async open(url: string, deadline: Deadline, what: string, secretUrl = false): Promise<void> {
    let response;
    try {
      response = await this.navigate(url, deadline, true);
    } catch (err) {
      throw this.refused ?? navigationFailure(err, what, secretUrl);
    }
    this.check();
    if (response && response.status() >= 500)
      throw new LoginFlowError("target_unreachable", `the ${what} answered HTTP ${response.status()}`);
  }

  /**
   * Opens a link that came by email (a sign-in or confirmation link) in the flow's page. The link is a
   * credential until it is used: its address goes into no message or log. Never retried: it may be spent.
   */
  async openEmailedLink(link: string, deadline: Deadline, what: string): Promise<void> {
    await this.navigate(link, deadline, false).catch((err: unknown) => {
      this.check();
      const reason =
        err instanceof Error
          ? err.message
              .split("\n")[0]!
              .replace(/\s+at\s+\S+$/, "")
              .replace(/https?:\/\/\S+/g, "<link>")
          : "error";
      throw new LoginFlowError(
        /timeout/i.test(reason) ? "timeout" : "target_unreachable",
        `the ${what} from the email could not be opened on ${new URL(link).host} (${reason})`,
        { retryable: false },
      );
    });
  }

  /**
   * `page.goto`, where a navigation the page started itself (a redirect after the form's POST, a script's
   * location change) may cancel ours: the flow carries on from where the site took the page, or, when the
   * page stayed put, goes once more (`retry`). Null when the site's page is the one now shown.
   */
  private async navigate(url: string, deadline: Deadline, retry: boolean): Promise<HTTPResponse | null> {
    const from = this.page.url();
    const go = () => this.page.goto(url, { waitUntil: "domcontentloaded", timeout: Math.max(1, deadline.remaining()) });
    try {
      return await go();
    } catch (err) {
      if (!(err instanceof Error && ABORTED.test(err.message)) || this.refused) throw err;
      await this.settle(deadline);
      if (this.page.url() !== from) return null;
      if (!retry) throw err;
      return await go();
    }
  }

  /** Waits until the page's own navigations have landed and its document is parsed (capped). */
  private async settle(deadline: Deadline): Promise<void> {
    const until = Date.now() + Math.min(SETTLE_CAP_MS, deadline.remaining());
    let quiet = 0;
    while (quiet < 2 && Date.now() < until) {
      await sleep(100);
      const parsed = await this.page.evaluate(() => document.readyState !== "loading").catch(() => false);
      quiet = this.navigations.size === 0 && parsed ? quiet + 1 : 0;
    }
  }
}
