import type { Page } from "@authsvc/browser";
import type { Deadline } from "../deadline";
import { networkQuiet } from "./network-quiet";
import { frameChange } from "./page-change";
import { WATCH_TIMING } from "./watch-timing";

/**
 * What a watch makes of one look: its verdict; `"again"`, look again at once (the flow acted on the page:
 * this look found no end, so the clock read after a decision is not read); `"confirm"`, look again at once
 * (what this look saw, a success, is to be seen once more) unless the time is over; `"wait"`, nothing
 * decided, look again once the page changed (or `lookEveryMs` passed) unless the time is over; `"settle"`,
 * look again once the page drew nothing for `lookEveryMs` (at most `quietCapMs`): what this look saw may be
 * half drawn (a form drawn in two ticks), and the next look is to see it finished.
 */
export type Next<T> = { verdict: T } | "again" | "confirm" | "wait" | "settle";

export interface WatchPageOptions<R, T> {
  deadline: Deadline;
  /** How long the watch may last (within the deadline); the deadline's whole remaining time when not given. */
  ms?: number;
  /**
   * Whether each look first waits for the network to go quiet (at most `quietCapMs`): a page answering an
   * action is read once it stopped loading. Off for a watch that reads the page as it draws (a form's fields).
   */
  quiet?: boolean;
  /** Waits for the page to settle before a look in place of the network's quiet (AfterSubmit's early look). */
  quietWait?: () => Promise<void>;
  /**
   * A verdict that needs no look (the browser went back to the site): asked before each look, and again
   * once the network went quiet.
   */
  done?: () => { verdict: T } | null;
  /** Called once the network went quiet, before the page is read (a refused navigation ends the watch there). */
  check?: () => void;
  /** Reads the page (the one the watch looks at now). */
  read: (page: Page) => Promise<R>;
  /** What a reading means (it may act on the page: then `"again"`). */
  decide: (reading: R) => Next<T> | Promise<Next<T>>;
  /**
   * The verdict once the time ran out: it gets the last reading (none when the time was out before the first
   * look). Throws when running out is the flow's failure. Not called with `clock: "decide"`.
   */
  timeUp?: (last: R | undefined) => T | Promise<T>;
  /**
   * When the clock is read: `"afterDecide"` (the default), after each decision, so the look that ends past
   * the time is still decided on; `"beforeLook"`, before each look, so no look starts (and no form goes out)
   * once the time is over; `"decide"`, never by the watch: `decide` keeps its own clock (one the flow's
   * actions restart) and gives the verdict when it ran out.
   */
  clock?: "afterDecide" | "beforeLook" | "decide";
  /** The longest pause between two looks of a still page (tests: a pause only a change ends). */
  lookEveryMs?: number;
}

/**
 * Watches a page until `decide` gives a verdict or the time runs out: each look waits for the network to
 * go quiet (unless `quiet: false`), reads the page and decides; between two looks the watch waits for the
 * page to change (a new element or text in its main frame, a navigation in any frame), at most `lookEveryMs`.
 * What every flow's "look at the page after an action" is; callers pass what to read and what counts.
 */
export async function watchPage<R, T>(pageNow: Page | (() => Page), options: WatchPageOptions<R, T>): Promise<T> {
  const { deadline, quiet = true, clock = "afterDecide", lookEveryMs = WATCH_TIMING.lookEveryMs } = options;
  const stopAt = Date.now() + Math.min(options.ms ?? Infinity, deadline.remaining());
  let last: R | undefined;
  const timeUp = async () => {
    if (!options.timeUp) throw new Error("watchPage: a watch with a clock needs timeUp");
    return options.timeUp(last);
  };
  for (;;) {
    const ended = options.done?.();
    if (ended) return ended.verdict;
    if (clock === "beforeLook" && Date.now() >= stopAt) return timeUp();
    // A flow whose page may change (a provider's popup, then the site's tab) looks at the one shown now.
    const page = typeof pageNow === "function" ? pageNow() : pageNow;
    if (options.quietWait) await options.quietWait();
    else if (quiet) {
      const timeoutMs = Math.max(1, Math.min(WATCH_TIMING.quietCapMs, deadline.remaining()));
      await networkQuiet(page, { idleMs: WATCH_TIMING.quietIdleMs, timeoutMs });
    }
    const endedQuiet = options.done?.();
    if (endedQuiet) return endedQuiet.verdict;
    options.check?.();
    last = await options.read(page);
    const next = await options.decide(last);
    if (typeof next === "object") return next.verdict;
    if (next === "again") continue;
    if (clock === "afterDecide" && Date.now() >= stopAt) return timeUp();
    if (next === "wait") await pageChange(page, lookEveryMs);
    if (next === "settle") await pageStill(page, lookEveryMs);
  }
}

/**
 * Waits until the page shows something new in its main frame, a frame navigates or loads (a form drawn in a
 * widget's frame, the site's next page), or `ms` passed. True when the page changed.
 */
export async function pageChange(page: Page, ms: number): Promise<boolean> {
  let wake = () => {};
  const navigated = new Promise<void>((resolve) => (wake = resolve));
  const onFrame = () => wake();
  const events = ["framenavigated", "frameattached", "domcontentloaded", "load"] as const;
  for (const event of events) page.on(event, onFrame);
  // Set before frameChange's own: it fires first when nothing changed.
  let timer: NodeJS.Timeout | undefined;
  const still = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([frameChange(page, "main", ms).then(() => true), navigated.then(() => true), still]);
  } finally {
    clearTimeout(timer);
    for (const event of events) page.off(event, onFrame);
  }
}

/** Waits until the page drew nothing and went nowhere for `ms`, at most `quietCapMs` (a page that never stops). */
async function pageStill(page: Page, ms: number): Promise<void> {
  const giveUpAt = Date.now() + WATCH_TIMING.quietCapMs;
  while ((await pageChange(page, ms)) && Date.now() < giveUpAt);
}
