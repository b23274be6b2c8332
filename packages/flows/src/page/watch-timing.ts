/**
 * The pace of every watch of a page after an action: one place for its numbers, in a module without a browser
 * so that the pure verdict rules read the same numbers as the watch that feeds them.
 */
export const WATCH_TIMING = {
  /** The network counts as quiet once no request the page's answer waits for was in flight this long. */
  quietIdleMs: 250,
  /** Pages that keep a connection busy (polling, beacons) never go quiet: a look waits no longer for it. */
  quietCapMs: 1000,
  /**
   * The longest a watch goes between two looks while the page shows no change: cookies, storage and the
   * watch's own clocks (a patience, a message left to settle) change without the page drawing anything.
   */
  lookEveryMs: 150,
  /**
   * How long a message without known words ("Checking…", "Please try later") must stay shown before it is the
   * site's answer: every flow's (login, username step, signup, an identity provider's page, the site's return).
   */
  messageSettleMs: 1000,
} as const;

/**
 * Whether something a watch has seen on every look since `since` (null: not shown on the last look) has been
 * shown for as long as `looks` looks used to take: a watch wakes as soon as the page draws something, so a rule
 * that wants a page settled on a sight counts the time it was shown, never its looks (a page that keeps
 * drawing, a spinner, would give two looks a few milliseconds apart). `looks` 2: shown on a second look at
 * least `lookEveryMs` after the first, as when the watch slept between its looks.
 */
export function shownLongEnough(since: number | null, now: number, looks: number): boolean {
  return since !== null && now - since >= (looks - 1) * WATCH_TIMING.lookEveryMs;
}
