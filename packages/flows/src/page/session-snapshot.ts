import type { BrowserContext, Page } from "@authsvc/browser";
import { indexedDbState } from "./indexed-db-state";
import { readNotes, sentencesShown } from "./page-sayings";
import { mergeSignals, scanPage } from "./scan-page";

/** What the browser and the page held just before a submit: what the site's answer is compared with. */
export interface SessionSnapshot {
  cookies: string;
  storage: string;
  indexedDb: string;
  /** Messages already on the page before submit ("Please sign in to continue") are not a verdict. */
  messages: string[];
  /** Sentences of the page's text blocks before submit (the page as first seen), for the same reason. */
  sentences: string[];
}

async function cookieFingerprint(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.domain}|${c.name}=${c.value}`).sort().join("&");
}

/** Cookies, localStorage of every frame and the messages shown, to tell what a submit changed. */
export async function snapshotSession(context: BrowserContext, page: Page, identifier: string): Promise<SessionSnapshot> {
  // Independent reads, taken together: this runs between the last keystroke and the submit.
  const [scans, notes, cookies, indexedDb] = await Promise.all([scanPage(page, identifier), readNotes(page), cookieFingerprint(context), indexedDbState(page)]);
  const signals = mergeSignals(scans);
  return { cookies, storage: signals.storage, indexedDb, messages: signals.messages, sentences: sentencesShown(notes) };
}

/** Whether the browser now holds session state it did not before the submit: cookies, localStorage or IndexedDB. */
export async function sessionChanged(context: BrowserContext, page: Page, before: SessionSnapshot, storage: string): Promise<boolean> {
  const cookies = await cookieFingerprint(context).catch(() => before.cookies);
  return cookies !== before.cookies || storage !== before.storage || (await indexedDbState(page)) !== before.indexedDb;
}
