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

async function localStorageOf(page: Page, origin: string): Promise<Array<{ name: string; value: string }>> {
  for (const frame of page.frames()) {
    let frameOrigin: string;
    try {
      frameOrigin = new URL(frame.url()).origin;
    } catch {
      continue;
    }
    if (frameOrigin !== origin) continue;
    try {
      return await frame.evaluate(() =>
        Object.keys(localStorage).map((name) => ({ name, value: localStorage.getItem(name) ?? "" })),
      );
    } catch {
      return [];
    }
  }
  return [];
}

/**
 * The whole browser state a login produced: every cookie in the context, the origins the flow visited,
 * and localStorage of each origin still open in the page, in Playwright's storageState shape.
 */
export async function captureState(context: BrowserContext, page: Page, visitedOrigins: Iterable<string>): Promise<SessionResponse> {
  const cookies = (await context.cookies()).map(toCookie);
  const origins = [...new Set(visitedOrigins)];
  const storage = [];
  for (const origin of origins) {
    const localStorage = await localStorageOf(page, origin);
    if (localStorage.length) storage.push({ origin, localStorage });
  }
  return { cookies, origins, storageState: { cookies, origins: storage } };
}
