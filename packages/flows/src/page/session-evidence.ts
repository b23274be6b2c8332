import { type BrowserContext, openPage, type Page, preparePagesLike, type TargetGuard } from "@authsvc/browser";
import { loginPageOf, type SessionResponse } from "@authsvc/contracts";
import { Deadline } from "../deadline";
import { bringCookies } from "./bring-cookies";
import { indexedDbEntries } from "./indexed-db-state";
import { PageWatch } from "./page-watch";
import { mergeSignals, scanPage } from "./scan-page";
import { type Next, watchPage } from "./watch-page";

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

// How long the second tab's page may take to show a login form, the account, or go elsewhere.
const REOPEN_FORM_WAIT_MS = 6000;
// A page the site sent the second tab on to counts once it stayed quiet, without a form, this many polls.
const REOPEN_QUIET_POLLS = 2;

/** The step a flow reports when it checks weak evidence (benches count it). */
export const SESSION_CHECK_STEP = "check the session: open the login page again in a second tab";

export interface Reopen {
  context: BrowserContext;
  /** The login page's address the caller gave (or the page the form was on). */
  loginUrl: string;
  guard: TargetGuard;
  deadline: Deadline;
  /** The page's sessionStorage, per origin: a second tab a person opens from the first one has it too. */
  sessionStorage?: Array<{ origin: string; entries: Array<[string, string]> }>;
  /** localStorage to put in place before the page's scripts run (a stored session opened in a fresh context). */
  localStorage?: Array<{ origin: string; entries: Array<[string, string]> }>;
  /** The User-Agent a stored session was made with (sites bind sessions to it); else the context's profile's. */
  userAgent?: string;
  onStep?: (step: string) => void;
}

/** What a tab shows at an address: see `lookAt`. `nothing+`: nothing, but a sign-out control is in the page (hidden in a menu). */
type Look = "form" | "account" | "elsewhere" | "nothing" | "nothing+" | "unreadable";

/**
 * Opens `r.loginUrl` in a new tab of `r.context` and reads what it shows: `form` (a password field, a
 * username-first step, or only a "Log in" control after the wait), `account` (a sign-out control or account
 * menu, or the account's name when `identifier` is given), `elsewhere` (sent on to another page, settled
 * there without a form), `nothing` (it stayed at the address showing neither for the whole wait: a slow page,
 * or one that shows neither), `unreadable` (it did not load, an HTTP error, never readable).
 */
async function lookAt(r: Reopen & { identifier?: string; visitor?: boolean }): Promise<Look> {
  // Prepared as the login's own page was (its browser profile): the site sees the same browser again.
  const page = await openPage(r.context);
  try {
    if (r.userAgent) await page.setUserAgent(r.userAgent);
    const watch = await PageWatch.attach(page, r.guard, r.loginUrl);
    for (const [kind, stores] of [
      ["sessionStorage", r.sessionStorage],
      ["localStorage", r.localStorage],
    ] as const) {
      if (!stores?.length) continue;
      await page.evaluateOnNewDocument(
        (
          which: "sessionStorage" | "localStorage",
          all: Array<{ origin: string; entries: Array<[string, string]> }>,
        ) => {
          const mine = all.find((s) => s.origin === location.origin);
          try {
            const store = window[which];
            for (const [k, v] of mine?.entries ?? []) if (store.getItem(k) === null) store.setItem(k, v);
          } catch {
            // Storage refused (an opaque origin): the page is read without it.
          }
        },
        kind,
        stores,
      );
    }
    try {
      await watch.open(r.loginUrl, r.deadline, "login page (session check)");
    } catch {
      return "unreadable";
    }
    if (watch.documentStatus >= 400) return "unreadable";
    let quiet = 0;
    return await watchPage(page, {
      deadline: r.deadline,
      ms: REOPEN_FORM_WAIT_MS,
      read: () => scanPage(page, r.identifier ?? "").catch(() => null),
      decide: async (scans): Promise<Next<Look>> => {
        // A page that never became readable proves nothing.
        if (!scans || scans.unreadable !== 0) return "wait";
        const signals = mergeSignals(scans);
        if (signals.passwordShown || signals.identifierOnlyShown) return { verdict: "form" };
        if (signals.signedIn || signals.nameShown) return { verdict: "account" };
        const parsed = await page.evaluate(() => document.readyState === "complete").catch(() => false);
        const offersSignIn = scans.some((s) => s.reading.opener);
        // A visitor without any session offered only "Log in" on a settled page is asked to sign in.
        if (r.visitor && offersSignIn && parsed && ++quiet >= REOPEN_QUIET_POLLS) return { verdict: "form" };
        quiet = parsed && !offersSignIn ? quiet + 1 : 0;
        // Sent elsewhere (a signed-in user's redirect away from the login page), and settled there without a form.
        if (quiet >= REOPEN_QUIET_POLLS && loginPageOf(page.url()) !== loginPageOf(r.loginUrl))
          return { verdict: "elsewhere" };
        // Settled at the address, a sign-out control in it (hidden in a menu, as a single-page app's is): what
        // it is will not change by waiting out the rest (a page still fetching is not quiet).
        if (quiet > REOPEN_QUIET_POLLS && signals.signOutHeld) return { verdict: "nothing+" };
        return "wait";
      },
      // Still at the address with neither a form nor the account: a slow page, or one that shows neither; a
      // session is never inferred from a page that shows nothing yet.
      timeUp: (scans) => {
        if (!scans || scans.unreadable !== 0) return "unreadable";
        if (scans.some((s) => s.reading.opener)) return "form";
        return mergeSignals(scans).signOutHeld ? "nothing+" : "nothing";
      },
    });
  } finally {
    await page.close().catch(() => undefined);
  }
}

/**
 * The login page opened again in a second tab of the same browser context: false when it shows its login
 * form, true when it sends the tab elsewhere or shows the account, null when nothing is proven (see `Look`).
 * The raw look, for a jar whose session is known to have signed in (a remembered device's cookies): a
 * login's weak evidence is checked by `secondLook`, which compares with a visitor.
 */
export async function signedInOnReopen(r: Reopen): Promise<boolean | null> {
  const look = await lookAt(r);
  return look === "form" ? false : look === "account" || look === "elsewhere" ? true : null;
}

/** What a look saw, for the step log. */
const said = (look: Look) => (look === "nothing+" ? "nothing (a sign-out control in the page, hidden)" : look);

export interface SecondLook extends Reopen {
  /** Where the login ended: a page of its own, when it is not the login page; null when it is a step (a chooser). */
  endedOn: string | null;
  /** The account's username or email: a page that shows it, to the session only, shows the account. */
  identifier?: string;
  /** Another context of the same job (its proxy, its browser profile), for a visitor without the session. */
  openContext?: () => Promise<BrowserContext>;
}

/** What the second look proved: signed in, or null (nothing proven: the login is unconfirmed), and why. */
export interface SecondLookAnswer {
  signedIn: true | null;
  why: string;
}

/**
 * Checks a login's weak evidence the way a person would, and as the cached-session check does, beside a
 * visitor without the session. Only proof of a session counts:
 * - the login page, opened again in a second tab, shows the account: signed in;
 * - it sends the tab elsewhere, or shows neither a form nor the account (a single-page app at its root),
 *   while a visitor (a fresh context of the same job) is asked to sign in there: signed in;
 * - the page the login ended on (a page of its own) shows the session no form and asks the visitor to sign
 *   in (a login page that shows its form to everyone, signed in or not, as WordPress's does): signed in.
 * Anything else proves nothing: the login page showing its form (it does to everyone), a page the same for
 * the visitor, a page that did not load again. The caller then answers `login_unconfirmed`, never success:
 * a second look never overrules strong evidence (it is only asked on weak evidence), and never makes one.
 */
export async function secondLook(r: SecondLook): Promise<SecondLookAnswer> {
  r.onStep?.(SESSION_CHECK_STEP);
  // The visitor's tabs are opened beside the session's, at the same time: each look may wait out a slow page.
  const visitorContext = (r.openContext ? r.openContext() : contextBeside(r.context)).then(
    (c) => c,
    () => null,
  );
  const visitor = async (url: string): Promise<Look> => {
    const context = await visitorContext;
    return context
      ? lookAt({ context, loginUrl: url, guard: r.guard, deadline: r.deadline, visitor: true })
      : "unreadable";
  };
  try {
    const [mine, theirs] = await Promise.all([lookAt(r), visitor(r.loginUrl)]);
    r.onStep?.(`second look: the login page shows the session ${said(mine)}, a visitor ${said(theirs)}`);
    if (mine === "account") return { signedIn: true, why: "the login page, opened again, shows the account" };
    // Sent on, as the old second look read it; shown neither a form nor the account, only with a sign-out
    // control in the page (a step between the password and the session, a chooser, shows a visitor a form too).
    if ((mine === "elsewhere" || mine === "nothing+") && theirs === "form")
      return {
        signedIn: true,
        why: "the login page asks a visitor without the session to sign in, and not the session",
      };
    if (mine === "elsewhere" || mine === "nothing" || mine === "nothing+") {
      return {
        signedIn: null,
        why:
          mine === "elsewhere"
            ? "the login page sends a visitor without the session on as well"
            : "the login page shows neither a form nor the account, and nothing a visitor without the session does not get",
      };
    }
    const ended = r.endedOn && loginPageOf(r.endedOn) !== loginPageOf(r.loginUrl) ? r.endedOn : null;
    if (ended) {
      const [there, theirsThere] = await Promise.all([lookAt({ ...r, loginUrl: ended }), visitor(ended)]);
      r.onStep?.(
        `second look: the page the login ended on shows the session ${said(there)}, a visitor ${said(theirsThere)}`,
      );
      if (there === "account")
        return { signedIn: true, why: "the page the login ended on, opened again, shows the account" };
      // A page that differs from a visitor's proves nothing by itself (a step's page, a "session expired"
      // page); with a sign-out control in it (hidden in a menu), it is the account's.
      if (there === "nothing+" && theirsThere === "form")
        return {
          signedIn: true,
          why: "the page the login ended on holds a sign-out control for the session and asks a visitor without it to sign in",
        };
    }
    return {
      signedIn: null,
      why:
        mine === "form"
          ? "the site's login page, opened again, still shows its login form, and no page shows the session anything a visitor does not get"
          : "the login page did not load again",
    };
  } finally {
    await (await visitorContext)?.close().catch(() => undefined);
  }
}

/** A fresh context in the same browser whose pages are prepared like `context`'s (tests and tools: the worker gives its own). */
async function contextBeside(context: BrowserContext): Promise<BrowserContext> {
  const fresh = await context.browser().createBrowserContext();
  preparePagesLike(fresh, context);
  return fresh;
}

/**
 * The browser's session check of a stored session (keep-alive's, where a plain request could not tell):
 * its cookies and localStorage put in the fresh context `page` belongs to, then the same reading as a
 * login's weak-evidence check (signedInOnReopen): the login page opened again shows its form (signed out:
 * false), or sends the tab on or shows the account (signed in: true), unless a visitor without the
 * session (another fresh context) is read as signed in too; null when nothing is proven. A session kept in
 * IndexedDB is not restored here, so it is not judged: null.
 */
export async function storedSessionSignedIn(
  page: Page,
  session: Pick<SessionResponse, "cookies" | "storageState" | "userAgent">,
  loginUrl: string,
  guard: TargetGuard,
  timeoutMs: number,
): Promise<boolean | null> {
  if (session.storageState.origins.some((o) => o.indexedDB?.length)) return null;
  const context = page.browserContext();
  await bringCookies(context, session.cookies);
  const localStorage = session.storageState.origins
    .filter((o) => o.localStorage.length)
    .map((o) => ({ origin: o.origin, entries: o.localStorage.map((e): [string, string] => [e.name, e.value]) }));
  const deadline = new Deadline(timeoutMs);
  const signedIn = await signedInOnReopen({
    context,
    loginUrl,
    guard,
    deadline,
    localStorage,
    userAgent: session.userAgent,
  });
  if (signedIn !== true) return signedIn;
  // What a visitor without the session gets: a site that sends everyone on from its login page (a landing
  // page with a sign-in dialog, say) proves nothing by sending the session on.
  const visitor = await page.browser().createBrowserContext();
  try {
    return (await signedInOnReopen({ context: visitor, loginUrl, guard, deadline, userAgent: session.userAgent })) ===
      true
      ? null
      : true;
  } finally {
    await visitor.close().catch(() => undefined);
  }
}
