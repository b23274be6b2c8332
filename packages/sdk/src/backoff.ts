/** Exponential backoff with full jitter: 0.5 s, 1 s, 2 s … up to 8 s, each drawn uniformly below its cap. */
export function backoffMs(attempt: number, baseMs = 500, capMs = 8_000): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** attempt);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
