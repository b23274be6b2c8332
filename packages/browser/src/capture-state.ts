import type { BrowserContext, Cookie as PuppeteerCookie, Page } from "puppeteer-core";
import type { Cookie, SessionResponse } from "@authsvc/contracts";

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

type StorageEntries = Array<{ name: string; value: string }>;
const readLocalStorage = () => Object.keys(localStorage).map((name) => ({ name, value: localStorage.getItem(name) ?? "" }));

async function localStorageInFrames(page: Page, origin: string): Promise<StorageEntries | null> {
  for (const frame of page.frames()) {
    let frameOrigin: string;
    try {
      frameOrigin = new URL(frame.url()).origin;
    } catch {
      continue;
    }
    if (frameOrigin !== origin) continue;
    try {
      return await frame.evaluate(readLocalStorage);
    } catch {
      return [];
    }
  }
  return null;
}

/**
 * localStorage of an origin no frame shows any more (an identity provider the login passed through):
 * a scratch page in the same context opens the origin with an empty document we serve ourselves, so
 * nothing goes to the network, and reads it there.
 */
async function localStorageOffPage(context: BrowserContext, origin: string): Promise<StorageEntries> {
  const scratch = await context.newPage();
  try {
    await scratch.setRequestInterception(true);
    scratch.on("request", (request) => {
      void request.respond({ status: 200, contentType: "text/html", body: "<!doctype html><title></title>" }).catch(() => undefined);
    });
    await scratch.goto(`${origin}/`, { waitUntil: "domcontentloaded", timeout: 2000 });
    return await scratch.evaluate(readLocalStorage);
  } catch {
    return [];
  } finally {
    await scratch.close().catch(() => undefined);
  }
}

/**
 * The whole browser state a login produced: every cookie in the context, the origins the flow visited,
 * and localStorage in Playwright's storageState shape: of each origin a frame still shows, and of the
 * `documentOrigins` (pages the login passed through) that none does. Hosts that only set a cookie from
 * a request (analytics, APIs) are not opened for their storage.
 */
export async function captureState(
  context: BrowserContext,
  page: Page,
  visitedOrigins: Iterable<string>,
  documentOrigins: ReadonlySet<string> = new Set(visitedOrigins),
): Promise<SessionResponse> {
  const cookies = (await context.cookies()).map(toCookie);
  const origins = [...new Set(visitedOrigins)];
  const storage = [];
  for (const origin of origins) {
    const inFrames = await localStorageInFrames(page, origin);
    const localStorage = inFrames ?? (documentOrigins.has(origin) ? await localStorageOffPage(context, origin) : []);
    if (localStorage.length) storage.push({ origin, localStorage });
  }
  return { cookies, origins, storageState: { cookies, origins: storage } };
}
