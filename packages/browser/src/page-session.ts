import type { CDPSession, Page } from "puppeteer-core";

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * The page's own DevTools session, shared by everything the service does to a page over CDP beside
 * Puppeteer: its authenticator, its browser profile, the guard of its navigations, a live view. One per
 * page, opened when the page is prepared, never detached by its users: Chromium shows a page the
 * `navigator.platform` of the last session attached to it, so a session opened after the profile's (a second
 * one of ours) took the page back to the host's platform, against its user agent.
 */
export function pageSession(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.createCDPSession();
    sessions.set(page, session);
  }
  return session;
}
