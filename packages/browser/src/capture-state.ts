import type { BrowserContext, Cookie as PuppeteerCookie, Page } from "puppeteer-core";
import type { CapturedSession, Cookie } from "@authsvc/contracts";
import { type OriginStorage, readOriginStorageInPage } from "./read-origin-storage";

function toCookie(c: PuppeteerCookie): Cookie {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    // Chromium reports session cookies as -1 (or 0 on some versions); the API promises -1.
    expires: c.session || c.expires <= 0 ? -1 : Math.floor(c.expires),
    httpOnly: c.httpOnly,
    secure: c.secure,
    // Chromium treats a cookie without SameSite as Lax, and Playwright wants one of the three words.
    sameSite: c.sameSite === "Strict" || c.sameSite === "None" ? c.sameSite : "Lax",
  };
}

// An IndexedDB database larger than this is an offline cache, not a session: left out of the answer.
const MAX_DATABASE_CHARS = 1_000_000;
const EMPTY: OriginStorage = { localStorage: [], indexedDB: [] };
// How long the scratch page that reads a left origin's storage may take to open our empty document.
const OFF_PAGE_TIMEOUT_MS = 10_000;

async function storageInFrames(page: Page, origin: string): Promise<OriginStorage | null> {
  for (const frame of page.frames()) {
    let frameOrigin: string;
    try {
      frameOrigin = new URL(frame.url()).origin;
    } catch {
      continue;
    }
    if (frameOrigin !== origin) continue;
    try {
      return await frame.evaluate(readOriginStorageInPage, MAX_DATABASE_CHARS);
    } catch {
      // The frame went on meanwhile: read off the page, as for an origin no frame shows.
      return null;
    }
  }
  return null;
}

/**
 * Storage of an origin no frame shows any more (an identity provider the login passed through): a
 * scratch page in the same context opens the origin with an empty document we serve ourselves, so
 * nothing goes to the network, and reads it there.
 */
async function storageOffPage(context: BrowserContext, origin: string): Promise<OriginStorage> {
  const scratch = await context.newPage();
  try {
    await scratch.setRequestInterception(true);
    scratch.on("request", (request) => {
      void request
        .respond({ status: 200, contentType: "text/html", body: "<!doctype html><title></title>" })
        .catch(() => undefined);
    });
    // Nothing goes to the network: the time is the browser's own, which a loaded machine stretches.
    await scratch.goto(`${origin}/`, { waitUntil: "domcontentloaded", timeout: OFF_PAGE_TIMEOUT_MS });
    return await scratch.evaluate(readOriginStorageInPage, MAX_DATABASE_CHARS);
  } catch {
    return EMPTY;
  } finally {
    // Not waited for: what was read is in hand, and the page goes with its context if not before.
    void scratch.close().catch(() => undefined);
  }
}

/**
 * The whole browser state a login produced: every cookie in the context, the origins the flow visited,
 * and localStorage and IndexedDB in Playwright's storageState shape: of each origin a frame still shows,
 * and of the `documentOrigins` (pages the login passed through) that none does. Hosts that only set a cookie from
 * a request (analytics, APIs) are not opened for their storage. `signedInPage`: where the page is now (the
 * session check's page).
 */
export async function captureState(
  context: BrowserContext,
  page: Page,
  visitedOrigins: Iterable<string>,
  documentOrigins: ReadonlySet<string> = new Set(visitedOrigins),
): Promise<CapturedSession> {
  const origins = [...new Set(visitedOrigins)];
  // The cookies and every origin's storage at once: each read waits on the browser, not on the others (an
  // origin read off the page opens a page of its own).
  const read = async (origin: string) =>
    (await storageInFrames(page, origin)) ??
    (documentOrigins.has(origin) ? await storageOffPage(context, origin) : EMPTY);
  // The page's own User-Agent (the profile's override, not the browser's default): sites that bind a session to it.
  const userAgent = page.evaluate(() => navigator.userAgent).catch(() => page.browser().userAgent());
  const [jar, found] = await Promise.all([context.cookies(), Promise.all(origins.map(read))]);
  const cookies = jar.map(toCookie);
  const storage = [];
  for (const [i, origin] of origins.entries()) {
    const { localStorage, indexedDB } = found[i]!;
    if (indexedDB.length) storage.push({ origin, localStorage, indexedDB });
    else if (localStorage.length) storage.push({ origin, localStorage });
  }
  return {
    cookies,
    origins,
    storageState: { cookies, origins: storage },
    userAgent: await userAgent,
    signedInPage: page.url(),
  };
}
