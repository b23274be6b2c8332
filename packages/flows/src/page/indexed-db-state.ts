import { type Page, readOriginStorageInPage } from "@authsvc/browser";
import { readFrames } from "./scan-page";

// Enough to see a token arrive; a larger database (an offline cache) is not read on every poll.
const MAX_DATABASE_CHARS = 200_000;

/**
 * What the page's frames keep in IndexedDB, per origin (`[origin, databases as JSON]`): client SDKs
 * (Firebase Auth and others) keep their session only there, so a login that set no cookie and no
 * localStorage still shows.
 */
export async function indexedDbEntries(page: Page): Promise<Array<[string, string]>> {
  const scans = await readFrames(page, readOriginStorageInPage, MAX_DATABASE_CHARS).catch(() => []);
  return [...new Map(scans.map((s) => [new URL(s.frame.url()).origin, JSON.stringify(s.reading.indexedDB)])).entries()];
}
