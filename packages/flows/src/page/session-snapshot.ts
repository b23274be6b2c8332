import type { BrowserContext, Page } from "@authsvc/browser";
import { readNotes, sentencesShown } from "./page-sayings";
import { mergeSignals, scanPage } from "./scan-page";
import { baselineOf, type Entries, readEntries, type SessionBaseline } from "./session-evidence";

/** What the browser and the page held just before a submit: what the site's answer is compared with. */
export interface SessionSnapshot {
  /** Cookies, localStorage and IndexedDB, and which of them rotate on their own (see session-evidence). */
  baseline: SessionBaseline;
  /** Messages already on the page before submit ("Please sign in to continue") are not a verdict. */
  messages: string[];
  /** Sentences of the page's text blocks before submit (the page as first seen), for the same reason. */
  sentences: string[];
  /** The page showed the account's name before the submit (a username-first step's echo): then it proves nothing. */
  nameShown?: boolean;
}

/** What the page's own requests showed before the submit: which entries change without the flow (see baselineOf). */
export interface Rotation {
  /** The cookie jar as the page loaded, or null when it was not read. */
  earlier: Entries | null;
  /** Cookie names the site's responses set more than once. */
  reissued: ReadonlySet<string>;
}

/** Cookies, storage of every frame and the messages shown, to tell what a submit changed. */
export async function snapshotSession(
  context: BrowserContext,
  page: Page,
  identifier: string,
  rotation: Rotation = { earlier: null, reissued: new Set() },
): Promise<SessionSnapshot> {
  // Independent reads, taken together: this runs between the last keystroke and the submit.
  const [scans, notes, entries] = await Promise.all([
    scanPage(page, identifier),
    readNotes(page),
    readEntries(context, page, []),
  ]);
  const signals = mergeSignals(scans);
  for (const [key, value] of signals.storageEntries) entries.set(`storage ${key}`, value);
  return {
    baseline: baselineOf(entries, rotation.earlier, rotation.reissued),
    messages: signals.messages,
    sentences: sentencesShown(notes),
    nameShown: signals.nameShown,
  };
}
