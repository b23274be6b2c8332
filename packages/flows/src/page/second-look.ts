import { type BrowserContext, openPage, type Page, preparePagesLike, type TargetGuard } from "@authsvc/browser";
import { loginPageOf, type SessionResponse } from "@authsvc/contracts";
import { Deadline } from "../deadline";
import { bringCookies } from "./bring-cookies";
import { PageWatch } from "./page-watch";
import { type Look, readReopen, REOPEN_START, type ReopenSight, reopenTimeUp } from "./reopen-look";
import { mergeSignals, scanPage } from "./scan-page";
import { type Next, watchPage } from "./watch-page";

/*
 * A login's weak evidence checked as a person would check it: the login page opened again in a second tab
 * (beside a visitor without the session), and the browser's check of a stored session, which reads the same.
 */

// How long the second tab's page may take to show a login form, the account, or go elsewhere.
const REOPEN_FORM_WAIT_MS = 6000;

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

/** Opens `r.loginUrl` in a new tab of `r.context` and reads what it shows (see `Look`). */
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
    let so = REOPEN_START;
    return await watchPage(page, {
      deadline: r.deadline,
      ms: REOPEN_FORM_WAIT_MS,
      read: () => readSight(page, r),
      decide: (sight): Next<Look> => {
        const read = readReopen(sight, so, !!r.visitor);
        so = read.so;
        return read.look ? { verdict: read.look } : "wait";
      },
      timeUp: reopenTimeUp,
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

/** One look at the tab, for `readReopen`: null when the page could not be scanned. */
async function readSight(page: Page, r: Reopen & { identifier?: string }): Promise<ReopenSight | null> {
  const scans = await scanPage(page, r.identifier ?? "").catch(() => null);
  if (!scans) return null;
  const signals = mergeSignals(scans);
  return {
    readable: scans.unreadable === 0,
    form: signals.passwordShown || signals.identifierOnlyShown,
    account: !!signals.signedIn || signals.nameShown,
    parsed: await page.evaluate(() => document.readyState === "complete").catch(() => false),
    offersSignIn: scans.some((s) => s.reading.opener),
    signOutHeld: signals.signOutHeld,
    movedAway: loginPageOf(page.url()) !== loginPageOf(r.loginUrl),
    now: Date.now(),
  };
}
