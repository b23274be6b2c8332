/**
 * How long the client is willing to wait, from RFC 7240 `Prefer`: `respond-async` means answer 202 at
 * once, `wait=N` caps the wait at N seconds. Never longer than the server's own limit.
 */
export function preferredWaitMs(prefer: string | undefined, serverMaxMs: number): number {
  if (!prefer) return serverMaxMs;
  let wait = serverMaxMs;
  for (const token of prefer
    .toLowerCase()
    .split(",")
    .map((t) => t.trim())) {
    if (token === "respond-async") wait = 0;
    const m = /^wait\s*=\s*(\d+)$/.exec(token);
    if (m) wait = Math.min(wait, Number(m[1]) * 1000);
  }
  return wait;
}
