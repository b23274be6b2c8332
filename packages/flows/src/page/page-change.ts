import type { Page } from "@authsvc/browser";
import { sleep } from "../deadline";
import { findFrame } from "./scan-page";

// The least time between two looks: a page that never stops changing (a clock, a spinner) is not read on
// every tick.
const MIN_LOOK_MS = 25;

/**
 * Waits until the frame named `frameKey` shows something new (an element added, shown or changed), its
 * document goes (a navigation: the next one is looked at as soon as it is there), or `ms` passed. What a
 * flow waiting for an element waits for between two looks, instead of a fixed pause: the element a step
 * needs is taken the moment the page draws it.
 */
export async function frameChange(page: Page, frameKey: string, ms: number): Promise<void> {
  await sleep(MIN_LOOK_MS);
  const frame = findFrame(page, frameKey);
  const rest = Math.max(0, ms - MIN_LOOK_MS);
  if (!frame) return sleep(rest);
  let timer: NodeJS.Timeout | undefined;
  const changed = frame
    .evaluate(
      (wait: number) =>
        new Promise<void>((resolve) => {
          const done = () => {
            observer.disconnect();
            resolve();
          };
          const observer = new MutationObserver(done);
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          setTimeout(done, wait);
        }),
      rest,
    )
    .catch(() => undefined);
  // A frame that never answers (its renderer busy) still only holds the flow for `ms`.
  await Promise.race([changed, new Promise<void>((resolve) => (timer = setTimeout(resolve, rest)))]);
  clearTimeout(timer);
}
