import type { BrowserContext, Page } from "@authsvc/browser";
import { indexedDbEntries } from "./indexed-db-state";
import { tokensIn } from "./stored-tokens";

/**
 * The one rule for "this action gave the browser a new session", for every flow that acts on a site's
 * page (a password, an OAuth return, a signup, a confirmation, a forced password change).
 *
 * Sites re-issue some cookies on every response whatever happened: load balancers (AWS ALB's `AWSALB`,
 * F5's `BIGipServer…`), bot managers (Akamai's `_abck`/`bm_sz`, Cloudflare's `__cf_bm`), CSRF cookies, and
 * encrypted session cookies such as Laravel's, whose value changes with each response. A refusal page
 * therefore changes cookies too. What the site set before anything was sent tells these apart: an entry
 * that changed on its own before the submit (two values in the jar, or set by two responses) rotates, and
 * its change after the submit is no evidence. Removed entries never are (a sign-out removes them).
 *
 * Evidence, from the entries gained or changed beyond those that rotate, and what the page shows:
 * - `none`: nothing beyond what rotates changed, and nothing rotated either: never a session;
 * - `strong`: entries gained or changed, and the page shows the account (its sign-out control or account
 *   menu), or it went to another page than the login page (a redirect, a client-side route) with an entry
 *   the browser did not hold at all before;
 * - `weak`: anything else (a page of its own at the login page's address, changes only in entries that
 *   rotate): the flow checks it by opening the login page again in a second tab (`signedInOnReopen`).
 */
export type Evidence = "none" | "weak" | "strong";

/** Cookies (`cookie domain|path|name`), localStorage (`storage origin|key`) and IndexedDB (`indexeddb origin`), with their values. */
export type Entries = Map<string, string>;

export interface SessionBaseline {
  entries: Entries;
  /** Entries that change on their own, without the flow sending anything. */
  rotating: Set<string>;
}

export interface ReadOptions {
  /** Cookies that are not the site's (an identity provider's, in an OAuth login). */
  exclude?: (cookie: { domain: string; name: string }) => boolean;
  /** Leave IndexedDB out (it is read in every frame): what the browser holds there then counts as unchanged. */
  withoutIndexedDb?: boolean;
}

const cookieKey = (c: { domain: string; path: string; name: string }) => `cookie ${c.domain}|${c.path}|${c.name}`;

/** The browser's session state now: cookies, the given localStorage entries of the page's frames, IndexedDB. */
export async function readEntries(
  context: BrowserContext,
  page: Page,
  storage: Array<[string, string]>,
  options: ReadOptions = {},
): Promise<Entries> {
  const [cookies, databases] = await Promise.all([
    context.cookies(),
    options.withoutIndexedDb ? [] : indexedDbEntries(page).catch(() => []),
  ]);
  const entries: Entries = new Map();
  for (const c of cookies) if (!options.exclude?.(c)) entries.set(cookieKey(c), c.value);
  for (const [key, value] of storage) entries.set(`storage ${key}`, value);
  for (const [origin, value] of databases) entries.set(`indexeddb ${origin}`, value);
  return entries;
}

/** The cookie entries of a jar, for what the page's own requests change before anything is sent. */
export async function readJar(context: BrowserContext): Promise<Entries> {
  return new Map((await context.cookies()).map((c) => [cookieKey(c), c.value]));
}

/**
 * The state before a submit, and which of its entries rotate: those whose value differs from an earlier
 * reading (`earlier`, the jar as the page loaded), and cookies of the names the site's responses set more
 * than once (`reissued`, from the page watch).
 */
export function baselineOf(entries: Entries, earlier: Entries | null, reissued: ReadonlySet<string>): SessionBaseline {
  const rotating = new Set<string>();
  for (const [key, value] of entries) {
    const before = earlier?.get(key);
    if (before !== undefined && before !== value) rotating.add(key);
    if (key.startsWith("cookie ") && reissued.has(key.slice(key.lastIndexOf("|") + 1))) rotating.add(key);
  }
  return { entries, rotating };
}

export interface Changes {
  /** Entries the browser did not hold at all before. */
  gained: string[];
  /** Entries it held with another value, that do not rotate. */
  changed: string[];
  /** Entries that rotate and changed. */
  rotated: string[];
}

/** What differs from the baseline, beyond what rotates; an entry removed counts for nothing. */
export function changesSince(baseline: SessionBaseline, now: Entries): Changes {
  const changes: Changes = { gained: [], changed: [], rotated: [] };
  for (const [key, value] of now) {
    const before = baseline.entries.get(key);
    if (before === value) continue;
    if (baseline.rotating.has(key)) changes.rotated.push(key);
    else if (before === undefined) changes.gained.push(key);
    else changes.changed.push(key);
  }
  return changes;
}

export interface PageShows {
  /** Its sign-out control or account menu, or the signed-in marker this site showed before. */
  account: boolean;
  /** It is another page than the one the form was on (see `PageWatch.movedAway`). */
  movedAway: boolean;
}

/** Whether anything changed that does not rotate on its own. */
export const beyondRotation = (changes: Changes): boolean => changes.gained.length + changes.changed.length > 0;

/** How far the changes and the page prove a new session (see `Evidence`). */
export function weigh(changes: Changes, shows: PageShows): Evidence {
  if (!beyondRotation(changes)) return changes.rotated.length > 0 ? "weak" : "none";
  if (shows.account) return "strong";
  if (shows.movedAway && changes.gained.length > 0) return "strong";
  return "weak";
}

/** The main frame's sessionStorage, for a second tab opened from this one. */
export async function sessionStorageOf(
  page: Page,
): Promise<Array<{ origin: string; entries: Array<[string, string]> }>> {
  const read = await page
    .evaluate(() => {
      try {
        return {
          origin: location.origin,
          entries: Object.keys(sessionStorage).map((k): [string, string] => [k, sessionStorage.getItem(k) ?? ""]),
        };
      } catch {
        return null;
      }
    })
    .catch(() => null);
  return read && read.entries.length > 0 ? [read] : [];
}

/**
 * The evidence the browser holds now against `baseline`, given what the page shows: cookies and localStorage
 * read first, IndexedDB (read in every frame) only when they gained nothing. `sentBack`: whether the page
 * has sent one of these values to its site (see `PageWatch.sentBack`); a token the app stored and then sends
 * back (a bearer header, a socket's address) shows the account as a sign-out control does.
 */
export async function evidenceOnPage(
  page: Page,
  baseline: SessionBaseline,
  storage: Array<[string, string]>,
  shows: PageShows,
  sentBack?: (tokens: string[]) => boolean,
): Promise<Evidence> {
  const read = (withoutIndexedDb: boolean) =>
    readEntries(page.browserContext(), page, storage, { withoutIndexedDb }).catch(() => null);
  const now = await read(true);
  if (!now) return "none";
  const changes = changesSince(baseline, now);
  let seen = shows;
  if (!shows.account && sentBack) {
    const stored = [...changes.gained, ...changes.changed]
      .filter((key) => key.startsWith("storage "))
      .flatMap((key) => tokensIn(now.get(key) ?? ""));
    if (stored.length > 0 && sentBack(stored)) seen = { ...shows, account: true };
  }
  if (changes.gained.length > 0) return weigh(changes, seen);
  const whole = await read(false);
  return whole ? weigh(changesSince(baseline, whole), seen) : "none";
}
