import type { StorageState } from "../types";
import type { SessionLike } from "./session-cookies";

/**
 * The session as Playwright's storageState, ready for `browser.newContext({ storageState })` (cookies,
 * localStorage and IndexedDB of every origin). A copy: the context may change it without touching the session.
 */
export function toPlaywrightStorageState(session: SessionLike): StorageState {
  const state: StorageState = session.storageState ?? { cookies: session.cookies, origins: [] };
  return structuredClone(state);
}
