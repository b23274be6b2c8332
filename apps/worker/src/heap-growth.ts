import { setFlagsFromString } from "node:v8";

/**
 * How far the worker's V8 heap may grow past what the last full collection kept before the next one: 50%
 * (a factor of 1.5). A worker's live heap is about 65 MiB. What a login leaves behind (the DevTools
 * messages, Puppeteer's objects for a page) lives through seconds of awaits, so it outlives the young
 * generation and piles up in the old one, and V8's own factor let the heap grow to about three times the
 * live heap before it collected: a sawtooth from about 65 to 190 MiB a worker over a fleet run, which was
 * more than half of the fleet's memory per concurrent context. At 50% the same fleet's figure went from
 * 88–94 MiB at its peak to about 47 (the workers' Node from about 30 MiB of it to 12), at the same CPU per
 * login (docs/decisions/performance-history.md, "Memory per context").
 */
export const HEAP_GROWING_PERCENT = 50;

/** The V8 flag the worker sets, or null where its command line sets its own (an operator's choice wins). */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  return execArgv.some((arg) => /^--?heap[-_]growing[-_]percent(=|$)/.test(arg))
    ? null
    : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Sets the worker's heap growth (above) before it allocates much. V8 reads the factor at each full
 * collection, so setting it once the process runs acts as the command-line flag does (measured: the
 * same peak heap with either).
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag) setFlagsFromString(flag);
}
