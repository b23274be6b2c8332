import type { Page } from "@authsvc/browser";
import { networkQuiet } from "./network-quiet";
import { WATCH_TIMING } from "./watch-timing";

// How often a poll looks for `shownEarly` while it waits for the network to go quiet.
const EARLY_LOOK_MS = 40;

/**
 * Waits for the network to go quiet (at most `quiet` ms), or less once `shownEarly` says the page shows
 * its answer. It looks every EARLY_LOOK_MS, and at once when the main frame's new document is parsed
 * (its DOMContentLoaded, where a server-rendered answer's marker first can be there), also when that came
 * during a look.
 */
export async function quietOrShown(
  page: Page,
  quiet: number,
  shownEarly: (() => Promise<boolean>) | undefined,
): Promise<void> {
  const idle = networkQuiet(page, { idleMs: WATCH_TIMING.quietIdleMs, timeoutMs: quiet });
  if (!shownEarly) {
    await idle;
    return;
  }
  let waiting = true;
  let parsed = 0;
  let wake = () => {};
  const onParsed = () => {
    parsed++;
    wake();
  };
  page.on("domcontentloaded", onParsed);
  const shown = (async () => {
    const until = Date.now() + quiet;
    while (waiting && Date.now() < until) {
      const parsedBefore = parsed;
      if (await shownEarly().catch(() => false)) return;
      if (parsed !== parsedBefore) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, EARLY_LOOK_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {};
    }
    await idle;
  })();
  try {
    await Promise.race([idle, shown]);
  } finally {
    waiting = false;
    wake();
    page.off("domcontentloaded", onParsed);
  }
}
