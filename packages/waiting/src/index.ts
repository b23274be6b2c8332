/**
 * Waiting for a state instead of for a pause. Every wait here polls for something the product records (a
 * job's end in BullMQ or in the database, a maintenance run that came after) and has a bound generous
 * enough for a loaded machine: a bound only decides how long a test that is going to fail takes to say so.
 */

/**
 * The default bound of a wait for a state. Two minutes: on a 2-core machine running the whole suite beside
 * other work, a login took three times as long as on a quiet one, and a page's first load over 20 s.
 */
export const WAIT_BOUND_MS = 120_000;

export interface WaitOptions {
  /** How long at most; the error names `what`. */
  timeoutMs?: number;
  /** The first pause between two checks; each next pause is half as long again, up to SLOWEST_POLL_MS (or this, if longer). */
  everyMs?: number;
}

/**
 * The longest pause between two checks of a wait. Most checks are a round trip to the API, the database or
 * Redis, and most waits are for a browser login of several seconds: polling every 100 ms all along cost the
 * suite's process and the database a check per 100 ms of every login it waited for. Polls start quick (a
 * state reached at once is seen at once) and slow down to this.
 */
export const SLOWEST_POLL_MS = 500;

/**
 * Polls `check` until it returns a value other than undefined, null or false, and returns that value.
 * `what` names the state in the error of a wait that ran out; as a function, it is asked then, so the error
 * can say where things stopped (a job's status, a page's URL).
 */
export async function waitFor<T>(
  what: string | (() => string | Promise<string>),
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = WAIT_BOUND_MS, everyMs = 100 } = options;
  const slowest = Math.max(everyMs, SLOWEST_POLL_MS);
  const deadline = Date.now() + timeoutMs;
  for (let pause = everyMs; ; pause = Math.min(slowest, pause * 1.5)) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`never happened within ${timeoutMs} ms: ${typeof what === "string" ? what : await what()}`);
    await new Promise((r) => setTimeout(r, pause));
  }
}
