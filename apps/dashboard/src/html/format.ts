/** A moment as people read it in a table: `2026-11-26 10:04 UTC`; "—" when there is none. */
export function when(date: Date | null | undefined): string {
  if (!date) return "—";
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The host (and port) of a URL, for a "site" column; the text itself when it is not a URL. */
export function siteOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
