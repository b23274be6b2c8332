import { WATCH_TIMING } from "../../page/watch-timing";

/**
 * A message without known words ("Checking…", "Please try later") is a verdict only once the page has
 * settled on it: login and signup read it the same way, each with its own wait.
 */
export interface UnsettledMessage {
  readonly message: string;
  /** When it was first seen (Date.now()). */
  readonly at: number;
}

/**
 * Whether `message`, shown now, has settled: seen before, still the first message, and `settleMs` after it
 * was first seen (0: on the next poll that still shows it). Else it is the message waited on from now.
 */
export function settle(
  last: UnsettledMessage | null,
  message: string,
  now: number,
  settleMs: number = WATCH_TIMING.messageSettleMs,
): { settled: boolean; unsettled: UnsettledMessage } {
  if (!last || last.message !== message) return { settled: false, unsettled: { message, at: now } };
  return { settled: settleMs <= 0 || now - last.at >= settleMs, unsettled: last };
}
