let installed = false;

/** Puppeteer's error for a command sent to a page, context or browser that has closed meanwhile. */
export function isClosedTargetError(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  return reason.name === "TargetCloseError" || /Target closed|Session closed|Connection closed/.test(reason.message);
}

/**
 * The stealth plugin sends some page set-up commands without awaiting them; when we close a context on
 * purpose (job done, hard stop, shutdown) while one is in flight, it rejects with nobody listening. Those
 * rejections mean nothing and must not crash the worker. Any other unhandled rejection still does.
 */
export function tolerateClosedTargets(): void {
  if (installed) return;
  installed = true;
  process.on("unhandledRejection", (reason) => {
    if (isClosedTargetError(reason)) return;
    throw reason;
  });
}
