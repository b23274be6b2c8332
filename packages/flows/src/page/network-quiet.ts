import type { HTTPRequest, Page } from "@authsvc/browser";

/** A GET open longer than this (and not a document) is a long-poll, a stream or a chat channel: background. */
const LONG_REQUEST_MS = 1000;
// Resource types a page's answer never waits for: beacons and event streams.
const BACKGROUND_TYPES = new Set(["ping", "eventsource", "websocket"]);

interface Tracker {
  /** Requests in flight, with when each started. */
  open: Map<HTTPRequest, number>;
  /** Woken on every change: a request started or ended. */
  changed: Set<() => void>;
}

const trackers = new WeakMap<Page, Tracker>();

/**
 * Watches a page's requests from now on, so that `networkQuiet` can tell which are in flight and since when.
 * Call it before the page loads (the flows' pages: the login page, a second tab); a page first waited on
 * without it gets Puppeteer's plain count of every request for that wait.
 */
export function trackRequests(page: Page): void {
  if (trackers.has(page)) return;
  const tracker: Tracker = { open: new Map(), changed: new Set() };
  trackers.set(page, tracker);
  const changed = () => {
    for (const wake of tracker.changed) wake();
  };
  page.on("request", (request) => {
    tracker.open.set(request, Date.now());
    changed();
  });
  // Answered (its headers in) is done: a body still streaming keeps no answer waiting.
  const done = (request: HTTPRequest) => {
    if (tracker.open.delete(request)) changed();
  };
  page.on("response", (response) => done(response.request()));
  page.on("requestfinished", done);
  page.on("requestfailed", done);
}

/**
 * Whether the page's answer may wait for this request: not a beacon or a stream, and a document, a request
 * that sends something (a POST: a sign-in, a passkey's registration, however slow the site is to answer it),
 * or a GET open less than `longMs`.
 */
function foreground(request: HTTPRequest, startedAt: number, now: number, longMs: number): boolean {
  const type = request.resourceType();
  if (BACKGROUND_TYPES.has(type)) return false;
  return type === "document" || request.method() !== "GET" || now - startedAt < longMs;
}

/**
 * Waits until no request the page's answer depends on has been in flight for `idleMs`, or `timeoutMs` passed.
 * The page's own traffic counts: documents, scripts, styles, its XHR and fetch calls, and whatever it sends
 * (a POST counts until it is answered, however long). A busy application's background does not: analytics
 * beacons (sent every few hundred milliseconds by many sites), event streams, and GETs open longer than a
 * second (long-polls, chat and notification channels), which a plain count
 * of every request waited out to the timeout at each look. True when the page went quiet, false when the time
 * ran out first. `longMs`: how long a request may be open before it counts as background (tests).
 */
export async function networkQuiet(
  page: Page,
  options: { idleMs?: number; timeoutMs: number; longMs?: number },
): Promise<boolean> {
  const { idleMs = 250, timeoutMs, longMs = LONG_REQUEST_MS } = options;
  const tracker = trackers.get(page);
  if (!tracker) {
    // Not watched from the start: the requests already in flight are unknown, so every request counts.
    trackRequests(page);
    return page.waitForNetworkIdle({ idleTime: idleMs, timeout: Math.max(1, timeoutMs) }).then(
      () => true,
      () => false,
    );
  }
  const giveUpAt = Date.now() + timeoutMs;
  // Since when no foreground request has been in flight; null while one is.
  let quietSince: number | null = null;
  return new Promise<boolean>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      clearTimeout(timer);
      const now = Date.now();
      // The earliest moment a foreground request turns into background by its age.
      let turns = Infinity;
      let busy = false;
      for (const [request, startedAt] of tracker.open) {
        if (!foreground(request, startedAt, now, longMs)) continue;
        busy = true;
        if (request.resourceType() !== "document" && request.method() === "GET")
          turns = Math.min(turns, startedAt + longMs);
      }
      if (busy) quietSince = null;
      else quietSince ??= now;
      const quiet = quietSince !== null && now - quietSince >= idleMs;
      if (quiet || now >= giveUpAt) {
        tracker.changed.delete(check);
        resolve(quiet);
        return;
      }
      const next = Math.min(giveUpAt, quietSince !== null ? quietSince + idleMs : turns);
      timer = setTimeout(check, Math.max(1, next - now));
    };
    tracker.changed.add(check);
    check();
  });
}
