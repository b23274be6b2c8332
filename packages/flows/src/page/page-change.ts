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
 * needs is taken the moment the page draws it. Says which of these it was (callers need not ask; tests do).
 */
export async function frameChange(page: Page, frameKey: string, ms: number): Promise<FrameChange> {
  await sleep(MIN_LOOK_MS);
  const frame = findFrame(page, frameKey);
  const rest = Math.max(0, ms - MIN_LOOK_MS);
  if (!frame) {
    await sleep(rest);
    return "no frame";
  }
  let timer: NodeJS.Timeout | undefined;
  const changed = frame
    .evaluate(
      (wait: number) =>
        new Promise<"changed" | "time">((resolve) => {
          const done = (why: "changed" | "time") => {
            observer.disconnect();
            resolve(why);
          };
          const observer = new MutationObserver(() => done("changed"));
          observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          setTimeout(() => done("time"), wait);
        }),
      rest,
    )
    // The document went while it was watched (a navigation, or the frame detached).
    .catch(() => "document gone" as const);
  // A frame that never answers (its renderer busy) still only holds the flow for `ms`.
  const why = await Promise.race([
    changed,
    new Promise<"time">((resolve) => (timer = setTimeout(() => resolve("time"), rest))),
  ]);
  clearTimeout(timer);
  return why;
}

/** Why frameChange returned: the frame drew something, its document went, the time ran out, or no such frame. */
export type FrameChange = "changed" | "document gone" | "time" | "no frame";
