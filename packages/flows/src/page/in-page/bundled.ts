/**
 * An in-page reader as Puppeteer evaluates it: its source (what Puppeteer sends the frame) is its bundle, the
 * reader's module and its imports (see bundle.ts). Called in Node it runs the same modules (with no DOM, it
 * has nothing to read).
 */
export function bundled<A extends unknown[], T>(reader: (...args: A) => T, source: string): (...args: A) => T {
  return Object.defineProperty((...args: A) => reader(...args), "toString", { value: () => source });
}
